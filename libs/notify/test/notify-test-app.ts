import type { CommentSnapshot, PostSnapshot } from '@shiliu/contracts';
import { ServiceTestApp } from '@shiliu/platform/testing';
import { notifyService } from '../src';

export { type Answer, postSnapshot, type TestUser } from '@shiliu/platform/testing';

/** The notify service as every service's tests start one: fed auth's, content's and social's events through the in-process bus. */
export class NotifyTestApp extends ServiceTestApp {
  static async start(): Promise<NotifyTestApp> {
    return new NotifyTestApp(await ServiceTestApp.boot(notifyService));
  }

  /** Users whose unread counters differ from a recount of their visible unread notifications (none, always). */
  counterDrift(): Promise<unknown[]> {
    return this.query(COUNTER_DRIFT_SQL);
  }
}

/** What the unread counters hold beside a recount of the visible unread notifications, for every user where they differ. */
export const COUNTER_DRIFT_SQL = `
  WITH "recount" AS (
    SELECT "user_id",
      count(*) FILTER (WHERE "type" IN (4, 5, 7, 8))::int AS "comments", count(*) FILTER (WHERE "type" IN (1, 2))::int AS "likes",
      count(*) FILTER (WHERE "type" = 3)::int AS "collections", count(*) FILTER (WHERE "type" = 6)::int AS "follows"
    FROM "notifications" WHERE NOT "is_read" AND "hidden_by" IS NULL GROUP BY 1)
  SELECT coalesce("u"."user_id", "r"."user_id") AS "user_id", "u"."comments", "u"."likes", "u"."collections", "u"."follows",
    "r"."comments" AS "re_comments", "r"."likes" AS "re_likes", "r"."collections" AS "re_collections", "r"."follows" AS "re_follows"
  FROM "unread_counts" "u" FULL JOIN "recount" "r" ON "r"."user_id" = "u"."user_id"
  WHERE coalesce("u"."comments", 0) <> coalesce("r"."comments", 0) OR coalesce("u"."likes", 0) <> coalesce("r"."likes", 0)
    OR coalesce("u"."collections", 0) <> coalesce("r"."collections", 0) OR coalesce("u"."follows", 0) <> coalesce("r"."follows", 0)`;

let commentSeq = 0;

/** A comment's snapshot as content would send it; a reply names the comment and user it answers. */
export function commentSnapshot(
  post: PostSnapshot,
  author: { id: number },
  text: string,
  replyTo: { comment: CommentSnapshot } | null = null,
): CommentSnapshot {
  const id = 9000 + ++commentSeq;
  return {
    id,
    post_id: post.id,
    post_author_id: post.author_id,
    author_id: author.id,
    parent_id: replyTo ? (replyTo.comment.parent_id ?? replyTo.comment.id) : null,
    reply_to_comment_id: replyTo ? replyTo.comment.id : null,
    reply_to_user_id: replyTo ? replyTo.comment.author_id : null,
    content_text: text,
    images: [],
    created_at: new Date().toISOString(),
  };
}
