import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { type EventDefinition, type FollowChangePayload, userFollowed, userUnfollowed } from '@shiliu/contracts';
import { offsetOf, Outbox, type Pagination, pagination, type PaginationQuery, type Principal } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { UserStatsRepository } from '../stats/user-stats.repository';
import { UserCardRepository, type UserCardRow } from '../users/user-card.repository';
import { type FollowState, followState } from './follow-state';
import { type FollowListKind, FollowRepository } from './follow.repository';
import type { FollowListItem, UserFollowState } from './follow.view';

const selfRefused = (follow: boolean): BadRequestException => new BadRequestException(follow ? '不能关注自己' : '不能取消关注自己');

/**
 * Follows and unfollows. The unique edge decides whether a request changes anything: following twice or unfollowing
 * someone not followed succeeds with no second effect. The counters of both users move in the same transaction as
 * the edge, so they never disagree with it, and the event goes out through the outbox with the new counts.
 */
@Injectable()
export class FollowService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly follows: FollowRepository,
    private readonly cards: UserCardRepository,
    private readonly stats: UserStatsRepository,
  ) {}

  follow(principal: Principal, targetUserId: string): Promise<FollowState> {
    return this.change(principal, targetUserId, true);
  }

  unfollow(principal: Principal, targetUserId: string): Promise<FollowState> {
    return this.change(principal, targetUserId, false);
  }

  async status(principal: Principal | undefined, targetUserId: string): Promise<FollowState> {
    const target = await this.target(this.dataSource.manager, targetUserId);
    return this.stateOf(this.dataSource.manager, principal, target.id);
  }

  /** States for many users at once, in the order asked; users that do not exist read as not followed. */
  async statuses(principal: Principal | undefined, userIds: string[]): Promise<UserFollowState[]> {
    const manager = this.dataSource.manager;
    const found = new Map((await this.cards.byUserIds(manager, userIds)).map((card) => [card.user_id, card.id]));
    const states = await this.states(manager, principal, [...found.values()]);
    return userIds.map((userId) => {
      const id = found.get(userId);
      return { user_id: userId, ...((id !== undefined && states.get(id)) || followState(false, false)) };
    });
  }

  async list(kind: FollowListKind, principal: Principal | undefined, userId: string, query: PaginationQuery): Promise<{ items: FollowListItem[]; pagination: Pagination }> {
    const manager = this.dataSource.manager;
    const owner = await this.target(manager, userId);
    const { rows, total } = await this.follows.list(manager, kind, owner.id, query.limit, offsetOf(query.page, query.limit));
    const states = await this.states(manager, principal, rows.map((row) => row.id));
    const items = rows.map((row) => {
      const state = states.get(row.id) ?? followState(false, false);
      return { ...row, followed_at: new Date(row.followed_at).toISOString(), isFollowing: state.followed, isMutual: state.isMutual, buttonType: state.buttonType };
    });
    return { items, pagination: pagination(query.page, query.limit, total) };
  }

  /** The user the path names, or 404. */
  async target(manager: EntityManager, userId: string): Promise<UserCardRow> {
    const card = await this.cards.byUserId(manager, userId);
    if (!card) throw new NotFoundException('用户不存在');
    return card;
  }

  /**
   * A deleted account leaves no follows in either direction; the others' counters drop with them. Nothing is
   * emitted: no one is to be told that a deleted account stopped following them.
   */
  async removeUser(manager: EntityManager, id: number): Promise<void> {
    for (const edge of await this.follows.removeAllOf(manager, id)) {
      this.stats.move(manager, edge.follower_id, { follow_count: -1 });
      this.stats.move(manager, edge.following_id, { fans_count: -1 });
    }
    await this.cards.remove(manager, id);
  }

  async stateOf(manager: EntityManager, principal: Principal | undefined, id: number): Promise<FollowState> {
    return (await this.states(manager, principal, [id])).get(id) ?? followState(false, false);
  }

  /** The viewer's state towards each of `ids`; a visitor follows no one. */
  async states(manager: EntityManager, principal: Principal | undefined, ids: number[]): Promise<Map<number, FollowState>> {
    if (!principal) return new Map(ids.map((id) => [id, followState(false, false)]));
    const relations = await this.follows.relations(manager, Number(principal.id), ids);
    return new Map(ids.map((id) => {
      const relation = relations.get(id);
      return [id, followState(relation?.viewerFollows ?? false, relation?.followsViewer ?? false)];
    }));
  }

  /**
   * An administrator's edit of a follow: the old follow undone and the new one made in one transaction, each with
   * the counters and event of a student's tap, so a refused new follow (400, 404) leaves the old one in place. All
   * the users' counters are locked first, in id order, as a single follow locks its two.
   */
  replace(old: { follower: Principal; targetUserId: string }, next: { follower: Principal; targetUserId: string }): Promise<FollowState> {
    return this.dataSource.transaction(async (manager) => {
      const oldTarget = await this.target(manager, old.targetUserId);
      const nextTarget = await this.target(manager, next.targetUserId);
      await this.stats.lock(manager, [Number(old.follower.id), oldTarget.id, Number(next.follower.id), nextTarget.id]);
      await this.changeWithin(manager, old.follower, old.targetUserId, false);
      return this.changeWithin(manager, next.follower, next.targetUserId, true);
    });
  }

  private change(principal: Principal, targetUserId: string, follow: boolean): Promise<FollowState> {
    if (targetUserId === principal.userId) throw selfRefused(follow);
    return this.dataSource.transaction((manager) => this.changeWithin(manager, principal, targetUserId, follow));
  }

  private async changeWithin(manager: EntityManager, principal: Principal, targetUserId: string, follow: boolean): Promise<FollowState> {
    const target = await this.target(manager, targetUserId);
    const followerId = Number(principal.id);
    // Oneself: by the product ID an administrator's edit names, or under one the token does not carry any more.
    if (target.id === followerId || targetUserId === principal.userId) throw selfRefused(follow);
    await this.cards.ensure(manager, principal);
    const changed = follow ? await this.follows.add(manager, followerId, target.id) : await this.follows.remove(manager, followerId, target.id);
    if (changed) await this.moveCounters(manager, followerId, target, follow ? 1 : -1, principal.userId, follow ? userFollowed : userUnfollowed);
    return this.stateOf(manager, principal, target.id);
  }

  private async moveCounters(manager: EntityManager, followerId: number, target: UserCardRow, step: 1 | -1, followerUserId: string, event: EventDefinition<FollowChangePayload>): Promise<void> {
    this.stats.move(manager, followerId, { follow_count: step });
    this.stats.move(manager, target.id, { fans_count: step });
    // Written now, in id order, so that the event carries the counts this change leaves.
    await this.stats.apply(manager);
    const counts = await this.stats.of(manager, [followerId, target.id]);
    await this.outbox.add(manager, event, {
      follower_id: followerId,
      follower_user_id: followerUserId,
      following_id: target.id,
      following_user_id: target.user_id,
      follower_follow_count: counts.get(followerId)?.follow_count ?? 0,
      following_fans_count: counts.get(target.id)?.fans_count ?? 0,
    });
  }
}
