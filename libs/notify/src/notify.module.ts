import { Module } from '@nestjs/common';
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
  ],
  providers: [
    { provide: NOTIFY_SETTINGS, useFactory: () => loadNotifySettings() },
    NotificationRepository,
    UnreadCountRepository,
    NotificationService,
    UnreadHub,
    ActivityRepository,
    ActivityService,
    SenderRepository,
    NoteRepository,
    CommentCopyRepository,
  ],
})
export class NotifyModule {}
