import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, postDeleted, type PostDeletedPayload } from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { ObjectCleanupService } from './object-cleanup.service';
import { keysOf, noteHolder } from './upload-holders';

/** A deleted note's images, video and cover, and its comments' images, are removed once nothing else uses them. */
@Controller()
export class ReleaseNoteUploadsWhenPostIsDeleted {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern(postDeleted.type)
  async postDeleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, author_id, images, video_url, cover_url } = envelope.payload;
    await this.cleanup.letGo(context.manager, noteHolder(id), author_id, keysOf([...images, video_url, cover_url]));
  }
}
