import { Module } from '@nestjs/common';
import { AdminActionsController, AdminNotificationsController } from './admin/admin-notify.controller';
import { AdminNotifyRepository } from './admin/admin-notify.repository';
import { AdminNotifyService } from './admin/admin-notify.service';
import { ActivityController } from './activities/activity.controller';
import { ActivityRepository } from './activities/activity.repository';
import { ActivityService } from './activities/activity.service';
import { CommentCopyRepository } from './comments/comment-copy.repository';
import { CommentEventsHandler } from './comments/comment-events.handler';
import { FollowEventsHandler } from './follows/follow-events.handler';
import { NotificationController } from './notifications/notification.controller';
import { NotificationRepository } from './notifications/notification.repository';
import { NotificationService } from './notifications/notification.service';
import { UnreadCountRepository } from './notifications/unread-count.repository';
import { loadNotifySettings, NOTIFY_SETTINGS } from './notify.settings';
import { NoteRepository } from './posts/note.repository';
import { PostEventsHandler } from './posts/post-events.handler';
import { StreamTickets } from './stream/stream-tickets';
import { UnreadHub } from './stream/unread-hub';
import { UnreadStreamController } from './stream/unread-stream.controller';
import { SenderRepository } from './users/sender.repository';
import { UserEventsHandler } from './users/user-events.handler';

/** The notify service (DESIGN.md §1): notifications and their unread counters, the live badge, the activity monitor. */
@Module({
  controllers: [
    NotificationController,
    UnreadStreamController,
    ActivityController,
    UserEventsHandler,
    PostEventsHandler,
    CommentEventsHandler,
    FollowEventsHandler,
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
