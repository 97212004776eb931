import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, mediaVideoProcessed, type MediaVideoProcessedPayload, postUpdated } from '@shiliu/contracts';
import { type EventContext, Outbox } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/**
 * The notes and drafts of the uploader that name the upload switch to the playable file, and take the generated
 * cover where they had none. Published notes announce the change, so that search and user cards follow.
 */
@Controller()
export class SwitchNotesToPlayableVideoWhenVideoIsProcessed {
  constructor(private readonly posts: PostRepository, private readonly outbox: Outbox) {}

  @EventPattern(mediaVideoProcessed.type)
  async videoProcessed(@Payload() envelope: EventEnvelope<MediaVideoProcessedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { owner_id, source_url, video_url, cover_url } = envelope.payload;
    const rows = await this.posts.switchVideo(context.manager, owner_id, source_url, video_url, cover_url);
    for (const row of rows.filter((post) => !post.is_draft)) {
      await this.outbox.add(context.manager, postUpdated, { post: await this.posts.snapshot(context.manager, Number(row.id)) });
    }
  }
}
