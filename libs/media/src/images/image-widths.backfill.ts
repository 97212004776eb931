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
 * stored around the upload path (the demo seed's). One image at a time, in key order, a page of keys per query; an
 * image whose last width is stored already is skipped, so a pass cut short by a restart resumes where it stopped.
 * Each replica runs its own passes: the widths are the same bytes under the same keys, so doing one twice is harmless.
 */
@Injectable()
export class ImageWidthsBackfill implements OnApplicationBootstrap, OnModuleDestroy {
  /** Keys found with their widths (or unreadable) in this process, which later passes no longer read from storage. */
  private readonly settled = new Set<string>();
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

  /** Makes the widths of these keys' images now, those this process has not found done yet. */
  async ensure(keys: string[]): Promise<void> {
    for (const key of keys) {
      if (this.settled.has(key) || !hasWidths(key)) continue;
      await this.settle(key);
    }
  }

  private async walk(): Promise<BackfillPass> {
    const done: BackfillPass = { checked: 0, made: 0, unreadable: 0 };
    let after = '';
    while (!this.stopped) {
      const keys = await this.repository.imageKeysAfter(after, PAGE);
      if (keys.length === 0) break;
      after = keys[keys.length - 1];
      const madeBefore = done.made;
      for (const key of keys) {
        if (this.stopped) break;
        if (this.settled.has(key)) continue;
        done.checked++;
        const outcome = await this.settle(key);
        if (outcome !== 'there') done[outcome]++;
      }
      if (done.made > madeBefore) this.logger.info({ ...done, upTo: after }, 'image widths backfill progress');
    }
    if (done.made > 0 || done.unreadable > 0) this.logger.info(done, 'image widths backfill pass done');
    return done;
  }

  /** Stores the widths of `key` unless its last one is there already (or the image is not), and settles it. */
  private async settle(key: string): Promise<'made' | 'there' | 'unreadable'> {
    try {
      const made = await this.makeWidths(key);
      this.settled.add(key);
      return made ? 'made' : 'there';
    } catch (error) {
      if (!(error instanceof UnreadableImageError)) throw error;
      this.settled.add(key);
      this.logger.warn({ key, err: error }, 'image widths: stored image unreadable');
      return 'unreadable';
    }
  }

  private async makeWidths(key: string): Promise<boolean> {
    if (await this.storage.stat(widthKey(key, SHOWN_WIDTHS[SHOWN_WIDTHS.length - 1]))) return false;
    if (!(await this.storage.stat(key))) return false;
    const bytes = Buffer.concat(await (await this.storage.read(key)).toArray());
    const widths = await this.images.widthsOf(bytes);
    // The last width goes last: it is what marks the image as done.
    for (const { width, data } of widths) {
      await this.storage.put(widthKey(key, width), data, 'image/webp');
      await this.repository.recordWidth(key, widthKey(key, width), data.length);
    }
    return true;
  }
}
