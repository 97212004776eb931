import { Injectable } from '@nestjs/common';
import type { PostSnapshot } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';

/** The notes notifications point at: their author and the image a notification shows (a video's cover, else the first image). */
@Injectable()
export class NoteRepository {
  async upsert(manager: EntityManager, post: PostSnapshot, occurredAt: string): Promise<void> {
    await manager.query(
      `INSERT INTO "posts" ("id", "author_id", "title", "image", "as_of") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("id") DO UPDATE SET "author_id" = EXCLUDED."author_id", "title" = EXCLUDED."title", "image" = EXCLUDED."image", "as_of" = EXCLUDED."as_of"
       WHERE "posts"."as_of" <= EXCLUDED."as_of"`,
      [post.id, post.author_id, post.title, post.cover_url ?? post.images[0] ?? null, occurredAt],
    );
  }

  /** A tombstone, dated beyond any event, so that a late like or mention of the note notifies no one. */
  async remove(manager: EntityManager, id: number, authorId: number): Promise<void> {
    await manager.query(
      `INSERT INTO "posts" ("id", "author_id", "deleted", "as_of") VALUES ($1, $2, true, 'infinity')
       ON CONFLICT ("id") DO UPDATE SET "deleted" = true, "image" = NULL, "title" = '', "as_of" = 'infinity'`,
      [id, authorId],
    );
  }
}
