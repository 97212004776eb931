import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LOGGER, OBJECT_STORAGE, type ObjectStorage } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { UploadRepository } from '../uploads/upload.repository';

/** How long an upload may wait for a note, comment or avatar to use it before the sweep removes it. */
export const ORPHAN_AFTER_MS = 24 * 3600_000;
const SWEEP_EVERY_MS = 3600_000;

/**
 * Removes objects no one uses: those of a deleted note or account, and uploads never attached within a day
 * (swept hourly; every replica may sweep, since each row is deleted by exactly one of them).
 */
@Injectable()
export class ObjectCleanupService implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uploads: UploadRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.logger.error({ err: error }, 'orphan sweep failed')), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Sets what a note, comment or avatar uses; what it no longer uses (an image taken out in an edit, a video
   * replaced by its transcoded copy) is removed once nothing else uses it.
   */
  async use(manager: EntityManager, holder: string, ownerId: number, keys: string[]): Promise<void> {
    await this.release(manager, ownerId, await this.uploads.use(manager, holder, keys));
  }

  /** Ends what a deleted note (with its comments), comment or avatar used, and removes what nothing else uses. */
  async letGo(manager: EntityManager, holder: string, ownerId: number, keys: string[] = []): Promise<void> {
    await this.release(manager, ownerId, [...keys, ...(await this.uploads.letGo(manager, holder))]);
  }

  /** Removes every object of a deleted account that nothing else uses. */
  async releaseOwner(manager: EntityManager, ownerId: number): Promise<void> {
    await this.remove(await this.uploads.releaseOwner(manager, ownerId));
  }

  private async release(manager: EntityManager, ownerId: number, keys: string[]): Promise<void> {
    await this.remove(await this.uploads.release(manager, ownerId, keys, new Date(Date.now() - ORPHAN_AFTER_MS)));
  }

  /** Removes uploads left unattached for a day before `now`; answers how many objects went. */
  async sweep(now = new Date()): Promise<number> {
    const keys = await this.dataSource.transaction((manager) => this.uploads.releaseUnattached(manager, new Date(now.getTime() - ORPHAN_AFTER_MS)));
    await this.remove(keys);
    if (keys.length > 0) this.logger.info({ removed: keys.length }, 'orphan uploads removed');
    return keys.length;
  }

  private async remove(keys: string[]): Promise<void> {
    for (const key of keys) await this.storage.remove(key);
  }
}
