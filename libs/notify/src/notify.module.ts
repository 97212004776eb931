import { Module } from '@nestjs/common';
import { AdminActionsController, AdminNotificationsController } from './admin/admin-notify.controller';
import { AdminNotifyRepository } from './admin/admin-notify.repository';
import { AdminNotifyService } from './admin/admin-notify.service';
import { ActivityController } from './activities/activity.controller';
import { ActivityRepository } from './activities/activity.repository';
import { ActivityService } from './activities/activity.service';
import { CommentCopyRepository } from './comments/comment-copy.repository';
import { NotifyAuthorWhenCommentIsLiked } from './comments/notify-author-when-comment-is-liked.handler';
import { NotifyWhenUserIsMentioned } from './comments/notify-when-user-is-mentioned.handler';
import { RecordAndNotifyWhenCommentIsCreated } from './comments/record-and-notify-when-comment-is-created.handler';
import { RefreshCommentWhenCommentIsEdited } from './comments/refresh-comment-when-comment-is-edited.handler';
import { RemoveNotificationsWhenCommentIsDeleted } from './comments/remove-notifications-when-comment-is-deleted.handler';
import { WithdrawNotificationWhenCommentIsUnliked } from './comments/withdraw-notification-when-comment-is-unliked.handler';
import { NotifyAndCountFollowsWhenUserIsFollowed } from './follows/notify-and-count-follows-when-user-is-followed.handler';
import { NotificationController } from './notifications/notification.controller';
import { NotificationRepository } from './notifications/notification.repository';
import { NotificationService } from './notifications/notification.service';
import { UnreadCountRepository } from './notifications/unread-count.repository';
import { loadNotifySettings, NOTIFY_SETTINGS } from './notify.settings';
import { NoteRepository } from './posts/note.repository';
import { NotifyAuthorWhenPostIsLikedOrCollected } from './posts/notify-author-when-post-is-liked-or-collected.handler';
import { RecordNoteAndActivityWhenPostIsPublished } from './posts/record-note-and-activity-when-post-is-published.handler';
import { RefreshNoteWhenPostChanges } from './posts/refresh-note-when-post-changes.handler';
import { RemoveNotificationsWhenPostIsDeleted } from './posts/remove-notifications-when-post-is-deleted.handler';
import { WithdrawNotificationWhenPostIsUnlikedOrUncollected } from './posts/withdraw-notification-when-post-is-unliked-or-uncollected.handler';
import { StreamTickets } from './stream/stream-tickets';
import { UnreadHub } from './stream/unread-hub';
import { UnreadStreamController } from './stream/unread-stream.controller';
import { SenderRepository } from './users/sender.repository';
import { RecordSenderAndActivityWhenUserRegisters } from './users/record-sender-and-activity-when-user-registers.handler';
import { RefreshSenderWhenUserChanges } from './users/refresh-sender-when-user-changes.handler';
import { RemoveNotificationsWhenUserIsDeleted } from './users/remove-notifications-when-user-is-deleted.handler';

/** The notify service (DESIGN.md §1): notifications and their unread counters, the live badge, the activity monitor. */
@Module({
  controllers: [
    NotificationController,
    UnreadStreamController,
    ActivityController,
    RecordSenderAndActivityWhenUserRegisters,
    RefreshSenderWhenUserChanges,
    RemoveNotificationsWhenUserIsDeleted,
    RecordNoteAndActivityWhenPostIsPublished,
    RefreshNoteWhenPostChanges,
    RemoveNotificationsWhenPostIsDeleted,
    NotifyAuthorWhenPostIsLikedOrCollected,
    WithdrawNotificationWhenPostIsUnlikedOrUncollected,
    RecordAndNotifyWhenCommentIsCreated,
    RefreshCommentWhenCommentIsEdited,
    RemoveNotificationsWhenCommentIsDeleted,
    NotifyAuthorWhenCommentIsLiked,
    WithdrawNotificationWhenCommentIsUnliked,
    NotifyWhenUserIsMentioned,
    NotifyAndCountFollowsWhenUserIsFollowed,
    AdminNotificationsController,
    AdminActionsController,
  ],
  providers: [
    { provide: NOTIFY_SETTINGS, useFactory: () => loadNotifySettings() },
    NotificationRepository,
    UnreadCountRepository,
    NotificationService,
    UnreadHub,
    StreamTickets,
    ActivityRepository,
    ActivityService,
    SenderRepository,
    NoteRepository,
    CommentCopyRepository,
    AdminNotifyRepository,
    AdminNotifyService,
  ],
})
export class NotifyModule {}
