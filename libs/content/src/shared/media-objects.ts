import { Inject, Injectable } from '@nestjs/common';
import { type ObjectStorage, OBJECT_STORAGE } from '@shiliu/platform';
import { imageSize } from 'image-size';
import type { Readable } from 'node:stream';
import { PostRepository, type StoredImage, type StoredVideo } from '../posts/post.repository';
import { badRequest } from './sql';
import { objectKeyOf, ownObjectUrl } from './object-url';
import { textLength, toPlainLine } from './rich-text';

/** The header bytes read to find an image's size: enough for PNG, GIF, WebP and almost every JPEG. */
const HEADER_BYTES = 256 * 1024;

export interface VideoInput {
  url: string;
  coverUrl?: string | null;
  cover_url?: string | null;
  name?: string | null;
  size?: number | null;
}

/**
 * Checks that the media of a note are objects of our own store (the `/api/files/…` URLs media hands out), of
 * the right kind. Each image takes what media told of it (size, blurhash, thumbnail); an image media never
 * announced (demo data, or its event still on the way) has its size read from its header.
 */
@Injectable()
export class MediaObjects {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly posts: PostRepository,
  ) {}

  /** Images already on the note keep their known size, so an edit does not read them again. */
  async images(urls: unknown[], known: StoredImage[] = []): Promise<StoredImage[]> {
    const byUrl = new Map(known.map((image) => [image.url, image]));
    const result: StoredImage[] = [];
    for (const input of urls) {
      const raw = typeof input === 'object' && input !== null ? (input as { url?: unknown }).url : input;
      const key = objectKeyOf(raw);
      if (key === null) throw badRequest('图片必须是本站上传的图片');
      const url = ownObjectUrl(raw)!;
      const previous = byUrl.get(url);
      if (previous) {
        result.push(previous);
        continue;
      }
      const info = await this.storage.stat(key);
      if (!info) throw badRequest('图片不存在，请重新上传');
      if (!info.contentType.startsWith('image/')) throw badRequest('不支持的文件类型');
      result.push((await this.posts.imageDetails(url)) ?? { url, ...(await this.dimensions(key, info.size)) });
    }
    return result;
  }

  async video(input: VideoInput, known: StoredVideo | null): Promise<StoredVideo> {
    const key = objectKeyOf(input.url);
    if (key === null) throw badRequest('视频必须是本站上传的视频');
    const url = ownObjectUrl(input.url)!;
    if (known?.url !== url) {
      const info = await this.storage.stat(key);
      if (!info) throw badRequest('视频不存在，请重新上传');
      if (!info.contentType.startsWith('video/')) throw badRequest('请选择视频文件');
    }
    const coverInput = input.coverUrl ?? input.cover_url ?? null;
    const cover = coverInput ? (await this.images([coverInput], known?.cover_url ? [{ url: known.cover_url, width: null, height: null }] : []))[0].url : null;
    const name = input.name ? toPlainLine(input.name) : null;
    return {
      url,
      cover_url: cover,
      name: name && textLength(name) <= 200 ? name : null,
      size: typeof input.size === 'number' && Number.isFinite(input.size) && input.size >= 0 ? Math.round(input.size) : null,
    };
  }

  /** Whether each image a comment embeds is an object we hold (a comment may consist of images alone). */
  async allExist(urls: string[]): Promise<boolean> {
    for (const url of urls) {
      const key = objectKeyOf(url);
      const info = key ? await this.storage.stat(key) : null;
      if (!info || !info.contentType.startsWith('image/')) return false;
    }
    return true;
  }

  private async dimensions(key: string, size: number): Promise<{ width: number | null; height: number | null }> {
    for (const end of [Math.min(size, HEADER_BYTES) - 1, size - 1]) {
      try {
        const header = await readAll(await this.storage.read(key, { start: 0, end: Math.max(end, 0) }));
        const { width, height } = imageSize(header);
        if (width > 0 && height > 0) return { width, height };
      } catch {
        // The header was too short or the format unknown: try the whole object, then give up on the size.
      }
      if (end === size - 1) break;
    }
    return { width: null, height: null };
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
