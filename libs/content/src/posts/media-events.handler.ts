import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  mediaImageProcessed,
  type MediaImageProcessedPayload,
  mediaVideoProcessed,
  type MediaVideoProcessedPayload,
  postUpdated,
} from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/** Follows what the media service learns of uploads: image measures and placeholders, playable videos. */
@Controller()
export class MediaEventsHandler {
  constructor(private readonly posts: PostRepository, private readonly outbox: Outbox) {}

  /**
   * Kept for notes that take the image later, and copied into notes that already have it (the event may arrive
   * after the note was published with the URL).
   */
  @EventPattern(mediaImageProcessed.type)
  async imageProcessed(@Payload() envelope: EventEnvelope<MediaImageProcessedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { url, width, height, blurhash, thumbnail_url } = envelope.payload;
    await context.manager.query(
      `INSERT INTO "image_details" ("url", "width", "height", "blurhash", "thumbnail_url") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("url") DO UPDATE SET "width" = $2, "height" = $3, "blurhash" = $4, "thumbnail_url" = $5`,
      [url, width, height, blurhash, thumbnail_url],
    );
    await context.manager.query(
      `UPDATE "posts" SET "images" = (
         SELECT jsonb_agg(CASE WHEN image->>'url' = $1
           THEN image || jsonb_build_object('width', $2::int, 'height', $3::int, 'blurhash', $4::text, 'thumbnail_url', $5::text)
           ELSE image END ORDER BY position)
         FROM jsonb_array_elements("images") WITH ORDINALITY AS list(image, position))
       WHERE "images" @> jsonb_build_array(jsonb_build_object('url', $1::text))`,
      [url, width, height, blurhash, thumbnail_url],
    );
  }

  /**
   * The notes and drafts of the uploader that name the upload switch to the playable file, and take the generated
   * cover where they had none. Published notes announce the change, so that search and user cards follow.
   */
  @EventPattern(mediaVideoProcessed.type)
  async videoProcessed(@Payload() envelope: EventEnvelope<MediaVideoProcessedPayload>, @Ctx() context: EventContext): Promise<void> {
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
