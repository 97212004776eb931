import { Inject, Injectable } from '@nestjs/common';
import { isSearchable, postDocument, type PostRow } from '../posts/post.repository';
import { isFindable, userDocument, type UserRow } from '../users/user.repository';
import { SEARCH_ENGINE, type SearchEngine } from './search-engine';

/**
 * Hands the engine a row as a change left it, inside the event's transaction: when the engine cannot take it the
 * handler fails, the read model's change rolls back with it, and the event is retried until the engine returns.
 */
@Injectable()
export class Indexer {
  constructor(@Inject(SEARCH_ENGINE) private readonly engine: SearchEngine) {}

  async post(row: PostRow | null): Promise<void> {
    if (row === null) return;
    if (isSearchable(row)) await this.engine.indexPost(postDocument(row));
    else if (row.deleted) await this.engine.removePost(Number(row.id), Number(row.seq));
  }

  async user(row: UserRow | null): Promise<void> {
    if (row === null) return;
    if (isFindable(row)) await this.engine.indexUser(userDocument(row));
    else if (row.deleted) await this.engine.removeUser(Number(row.id), Number(row.seq));
  }
}
