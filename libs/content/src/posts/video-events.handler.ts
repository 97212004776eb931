import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, mediaVideoProcessed, type MediaVideoProcessedPayload, postUpdated } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/**
 * When media has made an uploaded video playable, the notes and drafts of its uploader that name the upload
 * switch to the playable file, and take the generated cover where they had none. Published notes announce the
 * change, so that search and user cards show the new cover.
 */
@Controller()
export class VideoEventsHandler {
  constructor(private readonly posts: PostRepository, private readonly outbox: Outbox) {}

  @EventPattern(mediaVideoProcessed.type)
  async processed(@Payload() envelope: EventEnvelope<MediaVideoProcessedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { owner_id, source_url, video_url, cover_url } = envelope.payload;
    const [rows]: [{ id: string; is_draft: boolean }[], number] = await context.manager.query(
      `UPDATE "posts" SET
         "video" = jsonb_set(
           jsonb_set("video", '{url}', to_jsonb($3::text)),
           '{cover_url}', CASE WHEN "video"->>'cover_url' IS NULL THEN to_jsonb($4::text) ELSE "video"->'cover_url' END),
         "cover_url" = COALESCE("cover_url", $4),
         "updated_at" = now()
       WHERE "author_id" = $1 AND "video"->>'url' = $2
       RETURNING "id", "is_draft"`,
      [owner_id, source_url, video_url, cover_url],
    );
    for (const row of rows.filter((post) => !post.is_draft)) {
      await this.outbox.add(context.manager, postUpdated, { post: await this.posts.snapshot(context.manager, Number(row.id)) });
    }
  }
}
