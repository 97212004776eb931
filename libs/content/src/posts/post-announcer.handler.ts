import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { backfillRequested, type BackfillRequestedPayload, type EventEnvelope, postAnnounced } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/**
 * Re-announces every published note when a read model asks (libs/platform/README.md, "Read models and backfill").
 * The rows are read FOR SHARE, so a change committing meanwhile is either in the snapshot or announced after it.
 */
@Controller()
export class PostAnnouncer {
  constructor(private readonly posts: PostRepository, @Inject(Outbox) private readonly outbox: Outbox) {}

  @EventPattern(backfillRequested.type)
  async announce(@Payload() envelope: EventEnvelope<BackfillRequestedPayload>, @Ctx() context: EventContext): Promise<void> {
    if (!envelope.payload.entities.includes('post')) return;
    const published: { id: string; like_count: number; collect_count: number; comment_count: number }[] = await context.manager.query(
      `SELECT "id", "like_count", "collect_count", "comment_count" FROM "posts" WHERE NOT "is_draft" ORDER BY "id" FOR SHARE`,
    );
    for (const { id, like_count, collect_count, comment_count } of published) {
      const likers: { user_id: string }[] = await context.manager.query(`SELECT "user_id" FROM "likes" WHERE "target_type" = 1 AND "target_id" = $1 ORDER BY "user_id" FOR SHARE`, [id]);
      const collectors: { user_id: string }[] = await context.manager.query(`SELECT "user_id" FROM "collections" WHERE "post_id" = $1 ORDER BY "user_id" FOR SHARE`, [id]);
      await this.outbox.add(context.manager, postAnnounced, {
        post: await this.posts.snapshot(context.manager, Number(id)),
        like_count,
        collect_count,
        comment_count,
        liked_by: likers.map((row) => Number(row.user_id)),
        collected_by: collectors.map((row) => Number(row.user_id)),
      });
    }
  }
}
