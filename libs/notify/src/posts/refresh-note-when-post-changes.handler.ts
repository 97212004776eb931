import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type EventEnvelope,
  postAnnounced,
  type PostAnnouncedPayload,
  type PostPublishedPayload,
  postUpdated,
} from '@shiliu/contracts';
import type { EventContext } from '@shiliu/platform';
import { NoteRepository } from './note.repository';

/** Keeps the note copy (title and cover in notifications) in step with edits and backfills. */
@Controller()
export class RefreshNoteWhenPostChanges {
  constructor(private readonly notes: NoteRepository) {}

  @EventPattern([postUpdated.type, postAnnounced.type])
  async updated(@Payload() envelope: EventEnvelope<PostPublishedPayload | PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.notes.upsert(context.manager, envelope.payload.post, envelope.occurredAt);
  }
}
