import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, OBJECT_STORAGE, type ObjectStorage } from '@shiliu/platform';
import type { Logger } from 'pino';
import { hasWidths, ImageProcessor, SHOWN_WIDTHS, UnreadableImageError, widthKey } from './image-processor';
import { ImageWidthsRepository } from './image-widths.repository';

/** Passes after the first find what the widths were not made for at upload or when a note first named an image. */
const PASS_EVERY_MS = 3600_000;
const PAGE = 100;

export interface BackfillPass {
  checked: number;
  made: number;
  unreadable: number;
}

/**
 * Makes the shown widths of the images stored without them: those uploaded before widths were made, and those
 * stored around the upload path (the demo seed's). One image at a time, in key order, a page of keys per query, of
 * those `image_widths` does not yet hold; each image is settled there once done, so a pass cut short by a restart
 * resumes where it stopped and later passes read only new images. Each replica runs its own passes: the widths are
 * the same bytes under the same keys, so doing one twice is harmless.
 */
@Injectable()
export class ImageWidthsBackfill implements OnApplicationBootstrap, OnModuleDestroy {
  private passes: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly images: ImageProcessor,
    private readonly repository: ImageWidthsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const run = () => void this.pass().catch((error: unknown) => this.logger.error({ err: error }, 'image widths backfill failed'));
    run();
    this.timer = setInterval(run, PASS_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.passes.catch(() => undefined);
  }

  /** One walk over every image, after the one under way; answers what it did. */
  pass(): Promise<BackfillPass> {
    const next = this.passes.catch(() => undefined).then(() => this.walk());
    this.passes = next;
    return next;
  }

  /** Makes the widths of these keys' images now, those not settled yet. */
  async ensure(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const settled = await this.repository.settledOf(keys);
    for (const key of keys) if (!settled.has(key)) await this.settle(key);
  }

  private async walk(): Promise<BackfillPass> {
    const done: BackfillPass = { checked: 0, made: 0, unreadable: 0 };
    let after = '';
    while (!this.stopped) {
      const keys = await this.repository.unsettledKeysAfter(after, PAGE);
      if (keys.length === 0) break;
      after = keys[keys.length - 1];
      const madeBefore = done.made;
      for (const key of keys) {
        if (this.stopped) break;
        done.checked++;
        const outcome = await this.settle(key);
        if (outcome === 'made' || outcome === 'unreadable') done[outcome]++;
      }
      if (done.made > madeBefore) this.logger.info({ ...done, upTo: after }, 'image widths backfill progress');
    }
    if (done.made > 0 || done.unreadable > 0) this.logger.info(done, 'image widths backfill pass done');
    return done;
  }

  /** Stores the widths of `key` unless its last one is there already, and settles it; an image not stored yet waits for a later pass. */
  private async settle(key: string): Promise<'made' | 'there' | 'none' | 'missing' | 'unreadable'> {
    if (!hasWidths(key)) {
      await this.repository.settle(key, 'none');
      return 'none';
    }
    try {
      const outcome = await this.makeWidths(key);
      if (outcome !== 'missing') await this.repository.settle(key, 'made');
      return outcome;
    } catch (error) {
      if (!(error instanceof UnreadableImageError)) throw error;
      await this.repository.settle(key, 'unreadable');
      this.logger.warn({ key, err: error }, 'image widths: stored image unreadable');
      return 'unreadable';
    }
  }

  private async makeWidths(key: string): Promise<'made' | 'there' | 'missing'> {
    // Images whose widths were made before they were settled in the table: their last width is stored.
    if (await this.storage.stat(widthKey(key, SHOWN_WIDTHS[SHOWN_WIDTHS.length - 1]))) return 'there';
    if (!(await this.storage.stat(key))) return 'missing';
    const bytes = Buffer.concat(await (await this.storage.read(key)).toArray());
    for (const { width, data } of await this.images.widthsOf(bytes)) {
      await this.storage.put(widthKey(key, width), data, 'image/webp');
      await this.repository.recordWidth(key, widthKey(key, width), data.length);
    }
    return 'made';
  }
}
