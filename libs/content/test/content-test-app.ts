import { randomUUID } from 'node:crypto';
import { LocalDirectoryStorage, MemoryRevocationList, type ServiceRuntime } from '@shiliu/platform';
import { ServiceTestApp } from '@shiliu/platform/testing';
import type { Redis } from 'ioredis';
import sharp from 'sharp';
import { contentService } from '../src';

export type { Answer, TestUser } from '@shiliu/platform/testing';

/** The content service as every service's tests start one, with stored images and videos to attach to notes. */
export class ContentTestApp extends ServiceTestApp {
  /** With Redis for the short-lived markers and tallies, as in distributed mode; in memory otherwise, as embedded. */
  static async start(options: { redis?: Redis; trustProxy?: ServiceRuntime['trustProxy'] } = {}): Promise<ContentTestApp> {
    return new ContentTestApp(await ServiceTestApp.boot(contentService, { redis: options.redis ?? null, ...(options.trustProxy && { trustProxy: options.trustProxy }) }));
  }

  get storage(): LocalDirectoryStorage {
    return this.runtime.objectStorage as LocalDirectoryStorage;
  }

  get revocations(): MemoryRevocationList {
    return this.runtime.revocations as MemoryRevocationList;
  }

  /** A real image in the object store, as the upload calls will put them there; answers its URL. */
  async image(width = 600, height = 800, key = `images/test/${randomUUID()}.png`): Promise<string> {
    const png = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 90 } } }).png().toBuffer();
    await this.storage.put(key, png, 'image/png');
    return `/api/files/${key}`;
  }

  async video(key = `videos/test/${randomUUID()}.mp4`): Promise<string> {
    await this.storage.put(key, Buffer.from('not really a video, but stored as one'), 'video/mp4');
    return `/api/files/${key}`;
  }
}

export interface PostData {
  id: number;
  title: string;
  content?: string;
  is_draft: 0 | 1;
  like_count: number;
  collect_count: number;
  comment_count: number;
  view_count: number;
  liked: boolean;
  collected: boolean;
  images: string[];
  tags: { id: number; name: string }[];
  [field: string]: unknown;
}

export interface PostPageData {
  posts: PostData[];
  pagination: { page: number; limit: number; total: number; pages: number; snapshot: string };
}

/** A valid note form with one fresh image; fields can be replaced. */
export async function noteForm(app: ContentTestApp, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { title: '图书馆的早晨', content: '<p>七点的图书馆很安静。</p>', category_id: 1, type: 1, images: [await app.image()], tags: ['学习'], ...overrides };
}
