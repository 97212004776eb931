import { Module } from '@nestjs/common';
import { AdminFollowsController, AdminFollowsService } from './admin/admin-follows.controller';
import { AdminFollowsRepository } from './admin/admin-follows.repository';
import { FollowAnnouncer } from './follows/follow-announcer.handler';
import { FollowController } from './follows/follow.controller';
import { FollowRepository } from './follows/follow.repository';
import { FollowService } from './follows/follow.service';
import { PostEventsHandler } from './posts/post-events.handler';
import { PostRepository } from './posts/post.repository';
import { UserStatsController } from './stats/user-stats.controller';
import { UserStatsRepository } from './stats/user-stats.repository';
import { UserStatsService } from './stats/user-stats.service';
import { UserCardRepository } from './users/user-card.repository';
import { UserEventsHandler } from './users/user-events.handler';

/** The social service (DESIGN.md §1): the follow graph, per-user counters and the user cards. */
@Module({
  controllers: [FollowController, FollowAnnouncer, UserStatsController, UserEventsHandler, PostEventsHandler, AdminFollowsController],
  providers: [FollowRepository, FollowService, PostRepository, UserCardRepository, UserStatsRepository, UserStatsService, AdminFollowsRepository, AdminFollowsService],
})
export class SocialModule {}
