import { Injectable } from '@nestjs/common';
import type { Principal } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { FollowService } from '../follows/follow.service';
import { PostRepository } from '../posts/post.repository';
import { UserStatsRepository } from './user-stats.repository';
import type { UserCardView, UserStatsView } from './user-stats.view';

/** The hover card shows the covers of this many newest notes (public-side.md, limits: hover-card covers 3). */
const CARD_COVERS = 3;

/** The profile counters and the hover card, answered from this service's own tables only. */
@Injectable()
export class UserStatsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly follows: FollowService,
    private readonly counters: UserStatsRepository,
    private readonly posts: PostRepository,
  ) {}

  async stats(userId: string): Promise<UserStatsView> {
    const manager = this.dataSource.manager;
    const user = await this.follows.target(manager, userId);
    const counts = await this.counters.one(manager, user.id);
    return { ...counts, likes_and_collects: counts.like_count + counts.collect_count };
  }

  async card(principal: Principal | undefined, userId: string): Promise<UserCardView> {
    const manager = this.dataSource.manager;
    const user = await this.follows.target(manager, userId);
    const stats = await this.stats(userId);
    const state = await this.follows.stateOf(manager, principal, user.id);
    return {
      id: user.id,
      user_id: user.user_id,
      avatar: user.avatar,
      nickname: user.nickname,
      verified: user.verified,
      bio: user.bio,
      followCount: stats.follow_count,
      fansCount: stats.fans_count,
      likeAndCollectCount: stats.likes_and_collects,
      ...state,
      isFollowing: state.followed,
      images: await this.posts.recentCovers(manager, user.id, CARD_COVERS),
    };
  }
}
