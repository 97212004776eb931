import { Module } from '@nestjs/common';
import { AdminFollowsController, AdminFollowsService } from './admin/admin-follows.controller';
import { AdminFollowsRepository } from './admin/admin-follows.repository';
import { FollowAnnouncer } from './follows/follow-announcer.handler';
import { FollowController } from './follows/follow.controller';
import { FollowRepository } from './follows/follow.repository';
import { FollowService } from './follows/follow.service';
import { BackfillNoteWhenPostIsAnnounced } from './posts/backfill-note-when-post-is-announced.handler';
import { CountCollectionsWhenPostIsCollected } from './posts/count-collections-when-post-is-collected.handler';
import { CountLikesWhenPostIsLiked } from './posts/count-likes-when-post-is-liked.handler';
import { PostRepository } from './posts/post.repository';
import { RefreshNoteWhenPostIsPublished } from './posts/refresh-note-when-post-is-published.handler';
import { RemoveNoteWhenPostIsDeleted } from './posts/remove-note-when-post-is-deleted.handler';
import { UserStatsController } from './stats/user-stats.controller';
import { UserStatsRepository } from './stats/user-stats.repository';
import { UserStatsService } from './stats/user-stats.service';
import { UserCardRepository } from './users/user-card.repository';
import { RefreshUserCardWhenUserChanges } from './users/refresh-user-card-when-user-changes.handler';
import { RemoveFollowsWhenUserIsDeleted } from './users/remove-follows-when-user-is-deleted.handler';

/** The social service (DESIGN.md §1): the follow graph, per-user counters and the user cards. */
@Module({
  controllers: [
    FollowController,
    FollowAnnouncer,
    UserStatsController,
    RefreshUserCardWhenUserChanges,
    RemoveFollowsWhenUserIsDeleted,
    RefreshNoteWhenPostIsPublished,
    BackfillNoteWhenPostIsAnnounced,
    RemoveNoteWhenPostIsDeleted,
    CountLikesWhenPostIsLiked,
    CountCollectionsWhenPostIsCollected,
    AdminFollowsController,
  ],
  providers: [FollowRepository, FollowService, PostRepository, UserCardRepository, UserStatsRepository, UserStatsService, AdminFollowsRepository, AdminFollowsService],
})
export class SocialModule {}
