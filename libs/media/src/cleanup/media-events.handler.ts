import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  commentCreated,
  type CommentCreatedPayload,
  commentUpdated,
  type CommentUpdatedPayload,
  type EventEnvelope,
  postDeleted,
  type PostDeletedPayload,
  postDraftSaved,
  type PostDraftSavedPayload,
  postPublished,
  type PostPublishedPayload,
  postUpdated,
  type PostUpdatedPayload,
  userDeleted,
  type UserDeletedPayload,
  userRegistered,
  type UserRegisteredPayload,
  userUpdated,
  type UserUpdatedPayload,
} from '@shiliu/contracts';
import { type EventContext, objectKeyOf } from '@shiliu/platform';
import { UploadRepository } from '../uploads/upload.repository';
import { ObjectCleanupService } from './object-cleanup.service';

function keysOf(urls: (string | null)[]): string[] {
  return urls.map(objectKeyOf).filter((key): key is string => key !== null);
}

/** Learns which uploads notes, comments and avatars use, and lets go of those of deleted notes and accounts. */
@Controller()
export class MediaEventsHandler {
  constructor(private readonly uploads: UploadRepository, private readonly cleanup: ObjectCleanupService) {}

  @EventPattern(postPublished.type)
  async published(@Payload() envelope: EventEnvelope<PostPublishedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.uploads.attach(context.manager, keysOf([...post.images, post.video_url, post.cover_url]));
  }

  @EventPattern(postUpdated.type)
  async updated(@Payload() envelope: EventEnvelope<PostUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.uploads.attach(context.manager, keysOf([...post.images, post.video_url, post.cover_url]));
  }

  @EventPattern(postDraftSaved.type)
  async draftSaved(@Payload() envelope: EventEnvelope<PostDraftSavedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.uploads.attach(context.manager, keysOf([...post.images, post.video_url, post.cover_url]));
  }

  @EventPattern([commentCreated.type, commentUpdated.type])
  async commented(@Payload() envelope: EventEnvelope<CommentCreatedPayload | CommentUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.uploads.attach(context.manager, keysOf(envelope.payload.comment.images));
  }

  @EventPattern(userRegistered.type)
  async registered(@Payload() envelope: EventEnvelope<UserRegisteredPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.uploads.attach(context.manager, keysOf([envelope.payload.user.avatar]));
  }

  @EventPattern(userUpdated.type)
  async profileUpdated(@Payload() envelope: EventEnvelope<UserUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.uploads.attach(context.manager, keysOf([envelope.payload.user.avatar]));
  }

  @EventPattern(postDeleted.type)
  async postDeleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { author_id, images, video_url, cover_url } = envelope.payload;
    await this.cleanup.release(context.manager, author_id, keysOf([...images, video_url, cover_url]));
  }

  @EventPattern(userDeleted.type)
  async userDeleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.cleanup.release(context.manager, envelope.payload.id);
  }
}
