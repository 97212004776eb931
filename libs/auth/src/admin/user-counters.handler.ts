import { Controller, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  followAnnounced,
  type FollowChangePayload,
  postAnnounced,
  type PostAnnouncedPayload,
  postDeleted,
  type PostDeletedPayload,
  postLiked,
  type PostReactionPayload,
  postUnliked,
  userDeleted,
  type UserDeletedPayload,
  userFollowed,
  userUnfollowed,
} from '@shiliu/contracts';
import { type CountAsOf, type EventContext, newestCounts, type NoteCountAsOf, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

/** Sets a count column of `user_counters` where the row's as-of column is not newer, inserting the row if missing. */
function userCounts(count: 'follow_count' | 'fans_count', asOf: 'follows_as_of' | 'fans_as_of') {
  return newestCounts<CountAsOf>(async (manager, values) => {
    await rowsOf(
      manager,
      `INSERT INTO "user_counters" ("user_id", "${count}", "${asOf}")
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) ORDER BY 1
       ON CONFLICT ("user_id") DO UPDATE SET "${count}" = EXCLUDED."${count}", "${asOf}" = EXCLUDED."${asOf}"
       WHERE "user_counters"."${asOf}" <= EXCLUDED."${asOf}"`,
      [values.map((value) => value.id), values.map((value) => value.count), values.map((value) => value.asOf)],
    );
  });
}

/** Sets notes' like counts in `post_likes` as `userCounts` does, inserting a missing row with its author. */
const postLikes = () =>
  newestCounts<NoteCountAsOf>(async (manager, values) => {
    await rowsOf(
      manager,
      `INSERT INTO "post_likes" ("post_id", "author_id", "like_count", "likes_as_of")
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::timestamptz[]) ORDER BY 1
       ON CONFLICT ("post_id") DO UPDATE SET "like_count" = EXCLUDED."like_count", "likes_as_of" = EXCLUDED."likes_as_of"
       WHERE "post_likes"."likes_as_of" <= EXCLUDED."likes_as_of"`,
      [values.map((value) => value.id), values.map((value) => value.authorId), values.map((value) => value.count), values.map((value) => value.asOf)],
    );
  });

/** The `user_counters` read model (social's counts, newest event wins per counter) and `post_likes` (content's per-note like counts). */
@Injectable()
export class UserCounterRepository {
  // A run of events sets each row once, with its newest count.
  private readonly follows = userCounts('follow_count', 'follows_as_of');
  private readonly fans = userCounts('fans_count', 'fans_as_of');
  private readonly likes = postLikes();

  followCount(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<void> {
    return this.follows.set(manager, { id, count, asOf: occurredAt });
  }

  fansCount(manager: EntityManager, id: number, count: number, occurredAt: string): Promise<void> {
    return this.fans.set(manager, { id, count, asOf: occurredAt });
  }

  postLikes(manager: EntityManager, postId: number, authorId: number, count: number, occurredAt: string): Promise<void> {
    return this.likes.set(manager, { id: postId, authorId, count, asOf: occurredAt });
  }

  async postDeleted(manager: EntityManager, postId: number, authorId: number): Promise<void> {
    await rowsOf(
      manager,
      `INSERT INTO "post_likes" ("post_id", "author_id", "deleted") VALUES ($1, $2, true) ON CONFLICT ("post_id") DO UPDATE SET "deleted" = true`,
      [postId, authorId],
    );
  }

  async remove(manager: EntityManager, id: number): Promise<void> {
    // A count gathered earlier in the run would otherwise bring the rows back (or undeleted) after this.
    for (const gathered of [this.follows, this.fans, this.likes]) await gathered.flush(manager);
    await rowsOf(manager, `DELETE FROM "user_counters" WHERE "user_id" = $1`, [id]);
    await rowsOf(manager, `UPDATE "post_likes" SET "deleted" = true WHERE "author_id" = $1`, [id]);
  }
}

/** Follow counts from social's events and like counts from content's (and their re-announcements when a read model starts empty). */
@Controller()
export class UserCountersHandler {
  constructor(private readonly counters: UserCounterRepository) {}

  @EventPattern([userFollowed.type, userUnfollowed.type, followAnnounced.type])
  async changed(@Payload() envelope: EventEnvelope<FollowChangePayload>, @Ctx() context: EventContext): Promise<void> {
    const payload = envelope.payload;
    await this.counters.followCount(context.manager, payload.follower_id, payload.follower_follow_count, envelope.occurredAt);
    await this.counters.fansCount(context.manager, payload.following_id, payload.following_fans_count, envelope.occurredAt);
  }

  @EventPattern([postLiked.type, postUnliked.type])
  async liked(@Payload() envelope: EventEnvelope<PostReactionPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post_id, post_author_id, count } = envelope.payload;
    await this.counters.postLikes(context.manager, post_id, post_author_id, count, envelope.occurredAt);
  }

  @EventPattern(postAnnounced.type)
  async announced(@Payload() envelope: EventEnvelope<PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post, like_count } = envelope.payload;
    await this.counters.postLikes(context.manager, post.id, post.author_id, like_count, envelope.occurredAt);
  }

  @EventPattern(postDeleted.type)
  async postDeleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.counters.postDeleted(context.manager, envelope.payload.id, envelope.payload.author_id);
  }

  @EventPattern(userDeleted.type)
  async deleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.counters.remove(context.manager, envelope.payload.id);
  }
}
