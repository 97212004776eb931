import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, mediaImageProcessed, type MediaImageProcessedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { PostRepository } from './post.repository';

/**
 * An image's measures and placeholder from media: kept for notes that take the image later, and copied into notes
 * that already have it (the event may arrive after the note was published with the URL).
 */
@Controller()
export class SaveImageDetailsWhenImageIsProcessed {
  constructor(private readonly posts: PostRepository) {}

  @EventPattern(mediaImageProcessed.type)
  async imageProcessed(@Payload() envelope: EventEnvelope<MediaImageProcessedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { url, width, height, blurhash, thumbnail_url } = envelope.payload;
    await this.posts.saveImageDetails(context.manager, { url, width, height, blurhash, thumbnail_url });
  }
}
