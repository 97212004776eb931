import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  commentCreated,
  type CommentCreatedPayload,
  commentDeleted,
  type CommentDeletedPayload,
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
import { ObjectCleanupService } from './object-cleanup.service';

function keysOf(urls: (string | null)[]): string[] {
  return urls.map(objectKeyOf).filter((key): key is string => key !== null);
}

/** Who uses an object (upload_uses): a note, one of its comments (under the note, so the note's deletion ends it too), an avatar. */
const noteHolder = (postId: number) => `post:${postId}`;
const commentHolder = (postId: number, commentId: number) => `${noteHolder(postId)}/comment:${commentId}`;
const avatarHolder = (userId: number) => `avatar:${userId}`;

/**
 * Learns what each note, comment and avatar uses, and removes what nothing uses any more: a deleted note's or
 * comment's images, an image an edit took out, a deleted account's uploads.
 */
@Controller()
export class MediaEventsHandler {
  constructor(private readonly cleanup: ObjectCleanupService) {}

  @EventPattern([postPublished.type, postUpdated.type, postDraftSaved.type])
  async noted(@Payload() envelope: EventEnvelope<PostPublishedPayload | PostUpdatedPayload | PostDraftSavedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { post } = envelope.payload;
    await this.cleanup.use(context.manager, noteHolder(post.id), post.author_id, keysOf([...post.images, post.video_url, post.cover_url]));
  }

  @EventPattern([commentCreated.type, commentUpdated.type])
  async commented(@Payload() envelope: EventEnvelope<CommentCreatedPayload | CommentUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { comment } = envelope.payload;
    await this.cleanup.use(context.manager, commentHolder(comment.post_id, comment.id), comment.author_id, keysOf(comment.images));
  }

  @EventPattern(commentDeleted.type)
  async commentDeleted(@Payload() envelope: EventEnvelope<CommentDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, post_id, author_id } = envelope.payload;
    await this.cleanup.letGo(context.manager, commentHolder(post_id, id), author_id);
  }

  @EventPattern([userRegistered.type, userUpdated.type])
  async profiled(@Payload() envelope: EventEnvelope<UserRegisteredPayload | UserUpdatedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { user } = envelope.payload;
    await this.cleanup.use(context.manager, avatarHolder(user.id), user.id, keysOf([user.avatar]));
  }

  @EventPattern(postDeleted.type)
  async postDeleted(@Payload() envelope: EventEnvelope<PostDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    const { id, author_id, images, video_url, cover_url } = envelope.payload;
    await this.cleanup.letGo(context.manager, noteHolder(id), author_id, keysOf([...images, video_url, cover_url]));
  }

  @EventPattern(userDeleted.type)
  async userDeleted(@Payload() envelope: EventEnvelope<UserDeletedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.cleanup.letGo(context.manager, avatarHolder(envelope.payload.id), envelope.payload.id);
    await this.cleanup.releaseOwner(context.manager, envelope.payload.id);
  }
}
