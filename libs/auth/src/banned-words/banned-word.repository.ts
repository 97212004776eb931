import { Injectable } from '@nestjs/common';
import { adminRows, type AdminListQuery, type AdminListSpec, rowsOf } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';

export interface BannedWordRow {
  id: string;
  word: string;
  created_at: Date;
}

/** The back office's 违禁词 list: a keyword filter on the word, sorted by id, word or time. */
export const BANNED_WORD_LIST: AdminListSpec = {
  sortFields: { id: 'w."id"', word: 'w."word"', created_at: 'w."created_at"' },
  defaultSort: 'id',
  tieBreaker: 'w."id"',
  filters: {
    keyword: { match: 'contains', columns: ['w."word"'], description: '违禁词包含' },
    word: { match: 'contains', columns: ['w."word"'], description: '违禁词包含' },
  },
};

const SELECT_WORDS = `SELECT w."id", w."word", w."created_at" FROM "banned_words" w`;

/** Every statement on the banned-word list and its version. */
@Injectable()
export class BannedWordRepository {
  async list(manager: EntityManager, query: AdminListQuery): Promise<{ rows: BannedWordRow[]; total: number }> {
    return adminRows<BannedWordRow>(manager, query, SELECT_WORDS);
  }

  /** Takes the list's next version, holding its row until the transaction ends: changes of the list queue here. */
  async nextVersion(manager: EntityManager): Promise<number> {
    const [{ version }] = await rowsOf<{ version: string }>(manager, `UPDATE "banned_word_list" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version"`);
    return Number(version);
  }

  /** The version in force, read FOR SHARE so that a change committing meanwhile is announced after it. */
  async currentVersion(manager: EntityManager): Promise<number> {
    const [{ version }] = await rowsOf<{ version: string }>(manager, `SELECT "version" FROM "banned_word_list" WHERE "id" = 1 FOR SHARE`);
    return Number(version);
  }

  /** Adds the words not yet listed and answers those added. */
  async add(manager: EntityManager, words: string[]): Promise<BannedWordRow[]> {
    return rowsOf<BannedWordRow>(
      manager,
      `INSERT INTO "banned_words" ("word") SELECT unnest($1::text[]) ON CONFLICT ("word") DO NOTHING RETURNING "id", "word", "created_at"`,
      [words],
    );
  }

  /** Removes the words of these ids and answers how many there were. */
  async remove(manager: EntityManager, ids: number[]): Promise<number> {
    return (await rowsOf<{ id: string }>(manager, `DELETE FROM "banned_words" WHERE "id" = ANY($1::bigint[]) RETURNING "id"`, [ids])).length;
  }

  async words(manager: EntityManager): Promise<string[]> {
    return (await rowsOf<{ word: string }>(manager, `SELECT "word" FROM "banned_words" ORDER BY "id"`)).map((row) => row.word);
  }
}
