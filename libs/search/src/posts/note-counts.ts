import { Injectable } from '@nestjs/common';
import { newestCounts, type NewestWrites, type NoteCountAsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import { Indexer } from '../engine/indexer.service';
import { type CountColumn, PostRepository } from './post.repository';

/**
 * A run's counts, the newest of each note's kept and set at the end of the run: fifty likes of one note in a run
 * set its count and index it once. Only the likes rank a note, so only they go to the engine. One instance serves
 * every handler, so a run's counts of a note are gathered together whichever event set them.
 */
@Injectable()
export class NoteCounts {
  private readonly counts: Record<CountColumn, NewestWrites<NoteCountAsOf>> = {
    like_count: this.gathered('like_count', true),
    collect_count: this.gathered('collect_count', false),
    comment_count: this.gathered('comment_count', false),
  };

  constructor(private readonly posts: PostRepository, private readonly indexer: Indexer) {}

  set(manager: EntityManager, column: CountColumn, id: number, authorId: number, count: number, asOf: string): Promise<void> {
    return this.counts[column].set(manager, { id, authorId, count, asOf });
  }

  private gathered(column: CountColumn, ranks: boolean): NewestWrites<NoteCountAsOf> {
    return newestCounts<NoteCountAsOf>(async (manager, counts) => {
      const rows = await this.posts.counts(manager, column, counts);
      if (ranks) for (const row of rows) await this.indexer.postCounted(row);
    });
  }
}
