import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isSearchable, postDocument, type PostRow } from '../posts/post.repository';
import { isFindable, userDocument, type UserRow } from '../users/user.repository';
import { IndexChanges } from './index-changes';
import { SEARCH_ENGINE, type SearchEngine } from './search-engine';

/**
 * Hands the engine a row as a change left it, inside the event's transaction: when the engine cannot take it the
 * handler fails, the read model's change rolls back with it, and the event is retried until the engine returns.
 * A change to what the row is found by is announced (IndexChanges); a count, which only reorders answers, is not.
 */
@Injectable()
export class Indexer {
  constructor(@Inject(SEARCH_ENGINE) private readonly engine: SearchEngine, private readonly changes: IndexChanges) {}

  /** A note published, edited, announced or deleted. */
  async post(manager: EntityManager, row: PostRow | null): Promise<void> {
    if (row === null) return;
    await this.postCounted(row);
    await this.changes.announce(manager);
  }

  /** A note's count that ranks it (its likes). */
  async postCounted(row: PostRow | null): Promise<void> {
    if (row === null) return;
    if (isSearchable(row)) await this.engine.indexPost(postDocument(row));
    else if (row.deleted) await this.engine.removePost(Number(row.id), Number(row.seq));
  }

  /** A user registered, edited, announced or deleted. */
  async user(manager: EntityManager, row: UserRow | null): Promise<void> {
    if (row === null) return;
    await this.userCounted(row);
    await this.changes.announce(manager);
  }

  /** A user's count that ranks them (their fans). */
  async userCounted(row: UserRow | null): Promise<void> {
    if (row === null) return;
    if (isFindable(row)) await this.engine.indexUser(userDocument(row));
    else if (row.deleted) await this.engine.removeUser(Number(row.id), Number(row.seq));
  }
}
