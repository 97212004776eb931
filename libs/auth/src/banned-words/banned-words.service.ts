import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { bannedWordsChanged } from '@shiliu/contracts';
import { adminPage, type AdminListQuery, type AdminPage, BannedWords, normalizeForBannedWords, Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { BANNED_WORD_MAX, BANNED_WORDS_PER_CALL, type AddBannedWordsDto } from './banned-word.dto';
import { BannedWordRepository, type BannedWordRow } from './banned-word.repository';

export interface BannedWordView {
  id: number;
  word: string;
  created_at: string;
}

const view = (row: BannedWordRow): BannedWordView => ({ id: Number(row.id), word: row.word, created_at: row.created_at.toISOString() });

/**
 * The banned-word list, owned by auth's administrator area (DESIGN.md §7): administrators change it, and each change
 * announces the whole list (`banned-words.changed`) in its transaction, for every service's copy, auth's own too;
 * a call that changes nothing writes nothing, so neither the version nor the audit log moves.
 */
@Injectable()
export class BannedWordsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly words: BannedWordRepository,
    private readonly copy: BannedWords,
  ) {}

  /** The list every service enforces now (auth's copy), for the web app's own checks. */
  inForce(): { version: number; words: string[] } {
    return this.copy.list;
  }

  async list(query: AdminListQuery): Promise<AdminPage<BannedWordView>> {
    const { rows, total } = await this.words.list(this.dataSource.manager, query);
    return adminPage(rows.map(view), query, total);
  }

  /** Adds the words as they are compared (normalised); 409 when every one of them is listed already. */
  async add(input: AddBannedWordsDto): Promise<{ added: BannedWordView[]; existing: string[] }> {
    const words = [...new Set([...(input.words ?? []), ...(input.word ?? '').split(/[\n,，、]/)].map(normalizeForBannedWords).filter(Boolean))];
    if (words.length === 0) throw new BadRequestException('请输入违禁词');
    if (words.length > BANNED_WORDS_PER_CALL) throw new BadRequestException(`一次最多添加${BANNED_WORDS_PER_CALL}个违禁词`);
    if (words.some((word) => [...word].length > BANNED_WORD_MAX)) throw new BadRequestException(`违禁词最多${BANNED_WORD_MAX}个字符`);
    const added = await this.dataSource.transaction(async (manager) => {
      const rows = await this.words.add(manager, words);
      if (rows.length > 0) await this.announceChange(manager);
      return rows;
    });
    if (added.length === 0) throw new ConflictException('违禁词已存在');
    const addedWords = new Set(added.map((row) => row.word));
    return { added: added.map(view), existing: words.filter((word) => !addedWords.has(word)) };
  }

  async remove(id: number): Promise<void> {
    if ((await this.removeMany([id])).deletedCount === 0) throw new NotFoundException('违禁词不存在');
  }

  async removeMany(ids: number[]): Promise<{ deletedCount: number }> {
    const deletedCount = await this.dataSource.transaction(async (manager) => {
      const removed = await this.words.remove(manager, ids);
      if (removed > 0) await this.announceChange(manager);
      return removed;
    });
    return { deletedCount };
  }

  /** Re-announces the list as it stands (a backfill request), under the version it has. */
  async announce(manager: EntityManager): Promise<void> {
    const version = await this.words.currentVersion(manager);
    await this.outbox.add(manager, bannedWordsChanged, { version, words: await this.words.words(manager) });
  }

  /**
   * Announces the list a change leaves, under the list's next version. Taking the version waits for any other change
   * to commit, so the list read after it holds every change of a lower version.
   */
  private async announceChange(manager: EntityManager): Promise<void> {
    const version = await this.words.nextVersion(manager);
    await this.outbox.add(manager, bannedWordsChanged, { version, words: await this.words.words(manager) });
  }
}
