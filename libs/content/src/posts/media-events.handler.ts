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
    await this.posts.saveImageDetails(context.manager, { url, width, height, blurhash, thumbnail_url });
  }

  /**
   * The notes and drafts of the uploader that name the upload switch to the playable file, and take the generated
   * cover where they had none. Published notes announce the change, so that search and user cards follow.
   */
  @EventPattern(mediaVideoProcessed.type)
  async videoProcessed(@Payload() envelope: EventEnvelope<MediaVideoProcessedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { owner_id, source_url, video_url, cover_url } = envelope.payload;
    const rows = await this.posts.switchVideo(context.manager, owner_id, source_url, video_url, cover_url);
    for (const row of rows.filter((post) => !post.is_draft)) {
      await this.outbox.add(context.manager, postUpdated, { post: await this.posts.snapshot(context.manager, Number(row.id)) });
    }
  }
}
