import { Injectable } from '@nestjs/common';
import { beforeRunEnds, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import type { NotificationType } from './notification-type';
import { UnreadCountRepository, type UnreadMove } from './unread-count.repository';

/** Who is told what: the key (recipient, sender, type, target) names at most one notification ever. */
export interface NotificationKey {
  userId: number;
  senderId: number;
  type: NotificationType;
  targetId: number;
}

export interface NewNotification extends NotificationKey {
  postId: number | null;
  commentId: number | null;
  replyToCommentId?: number | null;
  createdAt: string;
}

/** A notification as a page shows it, with the sender, note and comment as the read models know them now. */
export interface NotificationRow {
  id: number;
  type: NotificationType;
  is_read: boolean;
  created_at: Date;
  target_id: number;
  post_id: number | null;
  comment_id: number | null;
  sender_id: number;
  sender_user_id: string | null;
  sender_nickname: string | null;
  sender_avatar: string;
  sender_verified: number;
  sender_follow_count: number;
  sender_fans_count: number;
  post_image: string | null;
  post_author_id: number | null;
  comment_content: string | null;
  comment_like_count: number;
  comment_is_liked: boolean;
  parent_comment_content: string | null;
}

/** One group of `?group=target`: a recipient's likes or collections of one note or comment on one campus day. */
export interface NotificationGroupRow {
  type: NotificationType;
  target_id: number;
  day: string;
  latest_at: Date;
  actor_count: number;
  is_read: boolean;
  post_id: number | null;
  post_title: string | null;
  post_image: string | null;
  comment_id: number | null;
  comment_content: string | null;
  actors: { user_id: string | null; nickname: string | null; avatar: string; verified: number }[];
}

/** Which group a notification is in: its type, target and campus day, as the index `notifications_group` has them. */
export interface GroupKey {
  type: NotificationType;
  targetId: number;
  day: string;
}

/** The campus day of a notification; the same expression as the index `notifications_group`, so that the index serves it. */
const DAY = `("n"."created_at" AT TIME ZONE 'Asia/Shanghai')::date`;

/** How many of a group's senders it shows, newest first. */
const GROUP_ACTORS = 3;

interface Gone {
  user_id: string;
  type: number;
  is_read: boolean;
  hidden_by: string | null;
}

const PENDING = 'notify:pendingNotifications';

/** A notification to add or to withdraw, gathered in a run of events. */
type Change = { add: NewNotification } | { withdraw: NotificationKey };

const keyOf = (key: NotificationKey) => `${key.userId} ${key.senderId} ${key.type} ${key.targetId}`;

/**
 * The notifications and, moved in the same statements' transaction, their recipients' unread counters. In a run of
 * events (a consumer's transaction) new and withdrawn notifications are gathered and written at the end of the run,
 * or sooner when anything else here touches the table, so that whatever the run does next sees them.
 */
@Injectable()
export class NotificationRepository {
  constructor(private readonly unread: UnreadCountRepository) {}

  /**
   * Notifies unless this key has notified before: a notification hidden by the sender's undo shows again (unread,
   * dated now), any other existing one stays as it is. A comment notifies each person once, whatever else it does.
   * Nothing is told by or to a deleted account, nor about a deleted note or comment.
   */
  async add(manager: EntityManager, notification: NewNotification): Promise<void> {
    if (notification.userId === notification.senderId) return;
    if (!this.gather(manager, { add: notification })) await this.write(manager, [notification]);
  }

  /** The sender undid what notified: the notification goes while its recipient has not read it, and stays once read. */
  async withdraw(manager: EntityManager, key: NotificationKey): Promise<void> {
    if (!this.gather(manager, { withdraw: key })) await this.hide(manager, [key]);
  }

  /** In a run of events, queues the change for the end of the run (or whatever here touches the table first). */
  private gather(manager: EntityManager, change: Change): boolean {
    if (!beforeRunEnds(manager, this.writePending)) return false;
    const data = manager.queryRunner!.data as Record<string, Change[] | undefined>;
    (data[PENDING] ??= []).push(change);
    return true;
  }

  /**
   * Writes the changes the run has gathered so far. Changes to different keys touch different rows and commute, so
   * they go in waves: the first change of every key, then the second, and so on, each wave's notifications in one
   * statement and its withdrawals in another. Fifty students liking and unliking one note in a run cost a few
   * statements, not one each; each key's own changes keep their order.
   */
  private readonly writePending = async (manager: EntityManager): Promise<void> => {
    const data = (manager.queryRunner?.data ?? {}) as Record<string, Change[] | undefined>;
    const pending = data[PENDING];
    if (!pending?.length) return;
    delete data[PENDING];
    const waves: Change[][] = [];
    const seen = new Map<string, number>();
    for (const change of pending) {
      const key = keyOf('add' in change ? change.add : change.withdraw);
      const wave = seen.get(key) ?? 0;
      seen.set(key, wave + 1);
      (waves[wave] ??= []).push(change);
    }
    for (const wave of waves) {
      const adds = wave.flatMap((change) => ('add' in change ? [change.add] : []));
      const withdrawals = wave.flatMap((change) => ('withdraw' in change ? [change.withdraw] : []));
      if (adds.length > 0) await this.write(manager, adds);
      if (withdrawals.length > 0) await this.hide(manager, withdrawals);
    }
  };

  /** Revives or inserts each in one statement, in the order given (which is the order of their ids). */
  private async write(manager: EntityManager, notifications: NewNotification[]): Promise<void> {
    const column = <K extends keyof NewNotification>(key: K) => notifications.map((notification) => notification[key] ?? null);
    const added = await rowsOf<UnreadMove>(
      manager,
      `WITH "new" AS (
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::timestamptz[]) WITH ORDINALITY
           AS "n"("user_id", "sender_id", "type", "target_id", "post_id", "comment_id", "reply_to_comment_id", "created_at", "ord")
       ), "revived" AS (
         UPDATE "notifications" "t" SET "hidden_by" = NULL, "is_read" = false, "created_at" = "n"."created_at"
         FROM "new" "n"
         WHERE "t"."user_id" = "n"."user_id" AND "t"."sender_id" = "n"."sender_id" AND "t"."type" = "n"."type" AND "t"."target_id" = "n"."target_id" AND "t"."hidden_by" = 'undo'
         RETURNING "t"."user_id", "t"."sender_id", "t"."type", "t"."target_id"
       ), "inserted" AS (
         INSERT INTO "notifications" ("user_id", "sender_id", "type", "target_id", "post_id", "comment_id", "reply_to_comment_id", "created_at")
         SELECT "n"."user_id", "n"."sender_id", "n"."type", "n"."target_id", "n"."post_id", "n"."comment_id", "n"."reply_to_comment_id", "n"."created_at"
         FROM "new" "n"
         WHERE NOT EXISTS (SELECT 1 FROM "revived" "r" WHERE "r"."user_id" = "n"."user_id" AND "r"."sender_id" = "n"."sender_id" AND "r"."type" = "n"."type" AND "r"."target_id" = "n"."target_id")
           AND NOT EXISTS (SELECT 1 FROM "users" WHERE "id" IN ("n"."user_id", "n"."sender_id") AND "deleted")
           AND NOT EXISTS (SELECT 1 FROM "posts" WHERE "id" = "n"."post_id" AND "deleted")
           AND NOT EXISTS (SELECT 1 FROM "comments" WHERE "id" = "n"."comment_id" AND "deleted")
         ORDER BY "n"."ord"
         ON CONFLICT DO NOTHING RETURNING "user_id", "type"
       )
       SELECT "user_id", "type", 1 AS "delta" FROM "revived" UNION ALL SELECT "user_id", "type", 1 AS "delta" FROM "inserted"`,
      [column('userId'), column('senderId'), column('type'), column('targetId'), column('postId'), column('commentId'), column('replyToCommentId'), column('createdAt')],
    );
    await this.unread.move(manager, added);
  }

  /** Hides each key's notification that its recipient has not read, in one statement. */
  private async hide(manager: EntityManager, keys: NotificationKey[]): Promise<void> {
    const column = <K extends keyof NotificationKey>(key: K) => keys.map((one) => one[key]);
    const hidden = await rowsOf<UnreadMove>(
      manager,
      `UPDATE "notifications" "n" SET "hidden_by" = 'undo'
       FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::bigint[]) AS "k"("user_id", "sender_id", "type", "target_id")
       WHERE "n"."user_id" = "k"."user_id" AND "n"."sender_id" = "k"."sender_id" AND "n"."type" = "k"."type" AND "n"."target_id" = "k"."target_id"
         AND "n"."hidden_by" IS NULL AND NOT "n"."is_read"
       RETURNING "n"."user_id", "n"."type", -1 AS "delta"`,
      [column('userId'), column('senderId'), column('type'), column('targetId')],
    );
    await this.unread.move(manager, hidden);
  }

  /** An account's notifications go with it: those it received and those it sent. */
  removeOfUser(manager: EntityManager, userId: number): Promise<void> {
    return this.remove(manager, `"user_id" = $1 OR "sender_id" = $1`, userId);
  }

  /** A deleted note's likes, collections, comments and mentions. */
  removeOfPost(manager: EntityManager, postId: number): Promise<void> {
    return this.remove(manager, `"post_id" = $1`, postId);
  }

  removeOfComment(manager: EntityManager, commentId: number): Promise<void> {
    return this.remove(manager, `"comment_id" = $1`, commentId);
  }

  /** Deletes the notifications a deletion made meaningless, with their unread counts. */
  private async remove(manager: EntityManager, where: string, id: number): Promise<void> {
    await this.writePending(manager);
    const gone = await rowsOf<Gone>(manager, `DELETE FROM "notifications" WHERE ${where} RETURNING "user_id", "type", "is_read", "hidden_by"`, [id]);
    await this.unread.move(
      manager,
      gone.filter((row) => !row.is_read && row.hidden_by === null).map((row) => ({ user_id: row.user_id, type: row.type, delta: -1 })),
    );
  }

  /** Whether the user owns a visible notification `id`; anyone else's is as good as missing. */
  async owns(manager: EntityManager, userId: number, id: number): Promise<boolean> {
    await this.writePending(manager);
    const rows: unknown[] = await manager.query(`SELECT 1 FROM "notifications" WHERE "id" = $1 AND "user_id" = $2 AND "hidden_by" IS NULL`, [id, userId]);
    return rows.length > 0;
  }

  async markRead(manager: EntityManager, userId: number, ids: number[] | null, types: number[]): Promise<void> {
    await this.writePending(manager);
    const read = await rowsOf<UnreadMove>(
      manager,
      `UPDATE "notifications" SET "is_read" = true
       WHERE "user_id" = $1 AND "type" = ANY($2::smallint[]) AND ($3::bigint[] IS NULL OR "id" = ANY($3::bigint[])) AND "hidden_by" IS NULL AND NOT "is_read"
       RETURNING "user_id", "type", -1 AS "delta"`,
      [userId, types, ids],
    );
    await this.unread.move(manager, read);
  }

  /** Marks every visible notification of one group read; false when the recipient has no such group. */
  async markGroupRead(manager: EntityManager, userId: number, group: GroupKey): Promise<boolean> {
    await this.writePending(manager);
    const inGroup = `"n"."user_id" = $1 AND "n"."type" = $2 AND "n"."target_id" = $3 AND ${DAY} = $4::date AND "n"."hidden_by" IS NULL AND "n"."type" IN (1, 2, 3)`;
    const parameters = [userId, group.type, group.targetId, group.day];
    const read = await rowsOf<UnreadMove>(
      manager,
      `UPDATE "notifications" "n" SET "is_read" = true WHERE ${inGroup} AND NOT "n"."is_read" RETURNING "n"."user_id", "n"."type", -1 AS "delta"`,
      parameters,
    );
    await this.unread.move(manager, read);
    if (read.length > 0) return true;
    const found: unknown[] = await manager.query(`SELECT 1 FROM "notifications" "n" WHERE ${inGroup} LIMIT 1`, parameters);
    return found.length > 0;
  }

  /** The recipient's deletion: hidden for good, so that the same sender doing the same again does not bring it back. */
  async dismiss(manager: EntityManager, userId: number, id: number): Promise<void> {
    await this.writePending(manager);
    const hidden = await rowsOf<{ user_id: string; type: number; is_read: boolean }>(
      manager,
      `UPDATE "notifications" SET "hidden_by" = 'owner' WHERE "id" = $1 AND "user_id" = $2 AND "hidden_by" IS NULL RETURNING "user_id", "type", "is_read"`,
      [id, userId],
    );
    await this.unread.move(manager, hidden.filter((row) => !row.is_read).map((row) => ({ user_id: row.user_id, type: row.type, delta: -1 })));
  }

  /** A page and the count of all, in one round trip while the page has rows (a badge's every change reads one). */
  async page(manager: EntityManager, userId: number, types: number[], limit: number, offset: number): Promise<{ rows: NotificationRow[]; total: number }> {
    await this.writePending(manager);
    const rows: (NotificationRow & { total: number })[] = await manager.query(
      `SELECT "n"."id"::int AS "id", "n"."type", "n"."is_read", "n"."created_at", "n"."target_id"::int AS "target_id",
         "n"."post_id"::int AS "post_id", "n"."comment_id"::int AS "comment_id", "n"."sender_id"::int AS "sender_id",
         "s"."user_id" AS "sender_user_id", "s"."nickname" AS "sender_nickname", coalesce("s"."avatar", '') AS "sender_avatar",
         coalesce("s"."verified", 0)::int AS "sender_verified", coalesce("s"."follow_count", 0) AS "sender_follow_count",
         coalesce("s"."fans_count", 0) AS "sender_fans_count",
         "p"."image" AS "post_image", "p"."author_id"::int AS "post_author_id",
         "c"."content" AS "comment_content", coalesce("c"."like_count", 0) AS "comment_like_count",
         EXISTS (SELECT 1 FROM "comment_likes" "l" WHERE "l"."comment_id" = "n"."comment_id" AND "l"."user_id" = "n"."user_id") AS "comment_is_liked",
         "r"."content" AS "parent_comment_content", (SELECT count(*)::int FROM "notifications" WHERE "user_id" = $1 AND "type" = ANY($2::smallint[]) AND "hidden_by" IS NULL) AS "total"
       FROM "notifications" "n"
       LEFT JOIN "users" "s" ON "s"."id" = "n"."sender_id"
       LEFT JOIN "posts" "p" ON "p"."id" = "n"."post_id"
       LEFT JOIN "comments" "c" ON "c"."id" = "n"."comment_id"
       LEFT JOIN "comments" "r" ON "r"."id" = "n"."reply_to_comment_id"
       WHERE "n"."user_id" = $1 AND "n"."type" = ANY($2::smallint[]) AND "n"."hidden_by" IS NULL
       ORDER BY "n"."created_at" DESC, "n"."id" DESC LIMIT $3 OFFSET $4`,
      [userId, types, limit, offset],
    );
    if (rows.length > 0) return { rows, total: rows[0].total };
    if (offset === 0) return { rows: [], total: 0 };
    const [{ total }]: { total: number }[] = await manager.query(
      `SELECT count(*)::int AS "total" FROM "notifications" WHERE "user_id" = $1 AND "type" = ANY($2::smallint[]) AND "hidden_by" IS NULL`,
      [userId, types],
    );
    return { rows: [], total };
  }

  /**
   * A page of groups, newest group first, and the count of all groups. Grouping happens here, in one statement: a
   * group's senders are its notifications' (one per sender, by the table's unique key), the newest three shown.
   */
  async groupPage(manager: EntityManager, userId: number, types: number[], limit: number, offset: number): Promise<{ rows: NotificationGroupRow[]; total: number }> {
    await this.writePending(manager);
    const rows: (NotificationGroupRow & { total: number })[] = await manager.query(
      `WITH "g" AS (
         SELECT "n"."type", "n"."target_id", ${DAY} AS "day", max("n"."created_at") AS "latest_at", count(*)::int AS "actor_count",
           bool_and("n"."is_read") AS "is_read", max("n"."post_id") AS "post_id", max("n"."comment_id") AS "comment_id",
           (array_agg("n"."sender_id" ORDER BY "n"."created_at" DESC, "n"."id" DESC))[1:${GROUP_ACTORS}] AS "sender_ids",
           count(*) OVER ()::int AS "total"
         FROM "notifications" "n"
         WHERE "n"."user_id" = $1 AND "n"."type" = ANY($2::smallint[]) AND "n"."hidden_by" IS NULL AND "n"."type" IN (1, 2, 3)
         GROUP BY "n"."type", "n"."target_id", ${DAY}
         ORDER BY "latest_at" DESC, "n"."type", "n"."target_id" DESC
         LIMIT $3 OFFSET $4
       )
       SELECT "g"."type", "g"."target_id"::int AS "target_id", "g"."day"::text AS "day", "g"."latest_at", "g"."actor_count", "g"."is_read",
         "g"."post_id"::int AS "post_id", "p"."title" AS "post_title", "p"."image" AS "post_image",
         "g"."comment_id"::int AS "comment_id", "c"."content" AS "comment_content", "g"."total",
         (SELECT json_agg(json_build_object('user_id', "s"."user_id", 'nickname', "s"."nickname", 'avatar', coalesce("s"."avatar", ''),
                   'verified', coalesce("s"."verified", 0)) ORDER BY "a"."ord")
          FROM unnest("g"."sender_ids") WITH ORDINALITY AS "a"("sender_id", "ord")
          LEFT JOIN "users" "s" ON "s"."id" = "a"."sender_id") AS "actors"
       FROM "g"
       LEFT JOIN "posts" "p" ON "p"."id" = "g"."post_id"
       LEFT JOIN "comments" "c" ON "c"."id" = "g"."comment_id"
       ORDER BY "g"."latest_at" DESC, "g"."type", "g"."target_id" DESC`,
      [userId, types, limit, offset],
    );
    if (rows.length > 0) return { rows, total: rows[0].total };
    if (offset === 0) return { rows: [], total: 0 };
    const [{ total }]: { total: number }[] = await manager.query(
      `SELECT count(DISTINCT ("n"."type", "n"."target_id", ${DAY}))::int AS "total" FROM "notifications" "n"
       WHERE "n"."user_id" = $1 AND "n"."type" = ANY($2::smallint[]) AND "n"."hidden_by" IS NULL AND "n"."type" IN (1, 2, 3)`,
      [userId, types],
    );
    return { rows: [], total };
  }
}
