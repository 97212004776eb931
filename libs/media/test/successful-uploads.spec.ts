import type { JobStatus } from '@shiliu/platform';
import { waitFor } from '@shiliu/platform/testing';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { hasGps, image, jpegWithGps, video, type VideoContainer } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

interface UploadedImage {
  url: string;
  originalName: string;
  size: number;
  width: number;
  height: number;
  aspectRatio: number;
  blurhash: string;
  thumbnailUrl: string;
}

interface UploadedVideo {
  url: string;
  coverUrl: string | null;
  originalname: string;
  size: number;
  jobId: string;
}

const run = promisify(execFile);

async function probe(bytes: Buffer): Promise<{ format: string; codecs: string[] }> {
  const directory = await mkdtemp(join(tmpdir(), 'shiliu-probe-'));
  try {
    const path = join(directory, 'file');
    await writeFile(path, bytes);
    const { stdout } = await run(process.env.FFPROBE_PATH ?? 'ffprobe', ['-v', 'error', '-show_entries', 'format=format_name:stream=codec_name', '-of', 'json', path]);
    const parsed = JSON.parse(stdout) as { format: { format_name: string }; streams: { codec_name: string }[] };
    return { format: parsed.format.format_name, codecs: parsed.streams.map((stream) => stream.codec_name) };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('uploads accepted (media service, real MinIO and ffmpeg, jobs in process)', () => {
  let app: MediaTestApp;

  beforeAll(async () => {
    app = await MediaTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each([
    ['jpeg', 'jpg', 'image/jpeg'],
    ['png', 'png', 'image/png'],
    ['webp', 'webp', 'image/webp'],
    ['gif', 'gif', 'image/gif'],
  ] as const)('stores a %s image under its content hash with size, blurhash and a thumbnail', async (format, extension, contentType) => {
    const bytes = await image(format, 300, 200);
    const answer = await app.upload<UploadedImage>('/api/upload/single', [{ field: 'file', name: `相片.${extension}`, body: bytes }]);

    expect(answer.status).toBe(200);
    const data = answer.body.data;
    expect(data.url).toMatch(new RegExp(`^/api/files/images/[0-9a-f]{64}\\.${extension}$`));
    expect(data).toMatchObject({ originalName: `相片.${extension}`, size: bytes.length, width: 300, height: 200, aspectRatio: 1.5 });
    expect(data.blurhash).toMatch(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{28}$/);

    const served = await app.fetchFile(data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(contentType);
    expect(served.headers.get('cache-control')).toContain('immutable');
    const thumbnail = await app.fetchFile(data.thumbnailUrl);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(thumbnail.body).metadata()).format).toBe('webp');

    const events = await app.query<{ envelope: { payload: Record<string, unknown> } }>(`SELECT "envelope" FROM "outbox" WHERE "type" = 'media.image.processed'`);
    expect(events.map((event) => event.envelope.payload)).toContainEqual({
      owner_id: 1001,
      url: data.url,
      width: 300,
      height: 200,
      blurhash: data.blurhash,
      thumbnail_url: data.thumbnailUrl,
    });
  });

  it('describes each upload call as a multipart form in its OpenAPI document', async () => {
    const document = (await (await fetch(`${app.base}/openapi.json`)).json()) as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: unknown }> } } }> };
    expect(document.paths['/api/upload/video'].post?.requestBody?.content['multipart/form-data'].schema).toEqual({
      type: 'object',
      properties: { file: { type: 'string', format: 'binary' }, thumbnail: { type: 'string', format: 'binary' } },
    });
    expect(document.paths['/api/upload/multiple'].post?.requestBody?.content['multipart/form-data'].schema).toMatchObject({
      properties: { files: { type: 'array', maxItems: 9 } },
    });
  });

  it('takes the same call under the field name image, and answers an avatar like any image', async () => {
    const answer = await app.upload<UploadedImage>('/api/upload/image', [{ field: 'image', name: 'avatar.png', body: await image('png', 200, 200) }]);
    expect(answer.status).toBe(200);
    expect(answer.body.data.aspectRatio).toBe(1);
  });

  it('takes an administrator\'s upload from the console, held apart from the students\' uploads', async () => {
    const admin = await app.adminToken(7, 'admin');
    const answer = await app.upload<UploadedImage>('/api/upload/single', [{ field: 'file', name: 'cover.png', body: await image('png', 120, 80) }], admin);
    expect(answer.status).toBe(200);
    expect((await app.fetchFile(answer.body.data.url)).status).toBe(200);
    const key = answer.body.data.url.replace('/api/files/', '');
    expect(await app.query(`SELECT "owner_id"::int AS "owner_id" FROM "uploads" WHERE "key" = $1`, [key])).toEqual([{ owner_id: -7 }]);
  });

  it('turns a photo upright by its EXIF orientation and keeps no metadata, GPS included', async () => {
    const original = await jpegWithGps();
    const before = await sharp(original).metadata();
    expect(before.orientation).toBe(6);
    expect(hasGps(before.exif)).toBe(true);

    const answer = await app.upload<UploadedImage>('/api/upload/single', [{ field: 'file', name: 'gps.jpg', body: original }]);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ width: 48, height: 64 });
    for (const url of [answer.body.data.url, answer.body.data.thumbnailUrl]) {
      const stored = await sharp((await app.fetchFile(url)).body).metadata();
      expect(stored.exif).toBeUndefined();
      expect(stored.xmp).toBeUndefined();
      expect(stored.orientation).toBeUndefined();
      expect([stored.width, stored.height]).toEqual([48, 64]);
    }
  });

  it('serves a display version no larger than 1200 px on its longer side', async () => {
    const answer = await app.upload<UploadedImage>('/api/upload/single', [{ field: 'file', name: 'big.jpg', body: await image('jpeg', 2400, 1600) }]);
    expect(answer.body.data).toMatchObject({ width: 1200, height: 800 });
    const stored = await sharp((await app.fetchFile(answer.body.data.url)).body).metadata();
    expect([stored.width, stored.height]).toEqual([1200, 800]);
  });

  it('reports each file of a multiple upload: the good ones stored, a bad one named with its reason', async () => {
    const answer = await app.upload<{ uploaded: UploadedImage[]; errors: { file: string; reason: string }[] }>('/api/upload/multiple', [
      { field: 'files', name: 'a.jpg', body: await image('jpeg', 100, 100) },
      { field: 'files', name: 'evil.jpg', body: Buffer.from('#!/bin/sh\nrm -rf /\n') },
      { field: 'files', name: 'b.png', body: await image('png', 120, 90) },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.data.uploaded.map((file) => file.originalName)).toEqual(['a.jpg', 'b.png']);
    expect(answer.body.data.errors).toEqual([{ file: 'evil.jpg', reason: '不支持的文件类型' }]);
  });

  it('answers byte ranges with 206 so that video players can seek', async () => {
    const answer = await app.upload<UploadedVideo>('/api/upload/video', [{ field: 'file', name: 'clip.mp4', body: await video('mp4') }]);
    const whole = await app.fetchFile(answer.body.data.url);
    const part = await app.fetchFile(answer.body.data.url, { range: 'bytes=100-1123' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${whole.body.length}`);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.body.equals(whole.body.subarray(100, 1124))).toBe(true);
    expect((await app.fetchFile(answer.body.data.url, { range: `bytes=${whole.body.length + 10}-` })).status).toBe(416);
  });

  it.each([
    ['mp4', false],
    ['mov', false],
    ['webm', false],
    ['avi', true],
    ['wmv', true],
    ['flv', true],
  ] as [VideoContainer, boolean][])('makes a %s upload playable with a cover (transcoded: %s)', async (container, transcoded) => {
    const answer = await app.upload<UploadedVideo>('/api/upload/video', [{ field: 'file', name: `课堂.${container}`, body: await video(container) }]);
    expect(answer.status).toBe(200);
    const { url, coverUrl, originalname, jobId } = answer.body.data;
    expect(url).toMatch(new RegExp(`^/api/files/videos/[0-9a-f]{64}\\.${container}$`));
    expect(coverUrl).toBeNull();
    expect(originalname).toBe(`课堂.${container}`);

    const done = await waitFor('the video job', async () => {
      const status = await app.call<JobStatus>('GET', `/api/upload/video/jobs/${jobId}`, { token: await app.token() });
      if (status.body.data.state === 'failed') throw new Error(status.body.data.failedReason ?? 'failed');
      return status.body.data.state === 'completed' ? status.body.data : null;
    });
    expect(done.progress).toBe(100);
    const result = done.result as { url: string; coverUrl: string };
    expect(result.url).toBe(transcoded ? url.replace(/\.[a-z0-9]+$/, '.mp4') : url);

    const cover = await sharp((await app.fetchFile(result.coverUrl)).body).metadata();
    expect([cover.format, cover.width, cover.height]).toEqual(['jpeg', 640, 360]);
    if (transcoded) {
      const final = (await app.fetchFile(result.url)).body;
      expect(await probe(final)).toMatchObject({ codecs: ['h264', 'aac'] });
      // Fast start: the index (moov) comes before the media data (mdat), so playback starts while downloading.
      expect(final.indexOf('moov')).toBeLessThan(final.indexOf('mdat'));
    }
    const events = await app.query<{ envelope: { payload: Record<string, unknown> } }>(`SELECT "envelope" FROM "outbox" WHERE "type" = 'media.video.processed'`);
    expect(events.map((event) => event.envelope.payload)).toContainEqual(
      expect.objectContaining({ owner_id: 1001, source_url: url, video_url: result.url, cover_url: result.coverUrl }),
    );
  });

  it("answers a video's job to its uploader and administrators only, and to anyone else as a missing one", async () => {
    const answer = await app.upload<UploadedVideo>('/api/upload/video', [{ field: 'file', name: 'mine.mp4', body: await video('mp4', 1) }]);
    expect(answer.status).toBe(200);
    const path = `/api/upload/video/jobs/${answer.body.data.jobId}`;
    expect((await app.call<JobStatus>('GET', path, { token: await app.token() })).status).toBe(200);
    expect((await app.call<JobStatus>('GET', path, { token: await app.adminToken(7, 'admin') })).status).toBe(200);
    const missing = await app.call('GET', '/api/upload/video/jobs/00000000-0000-4000-8000-000000000000', { token: await app.token() });
    for (const stranger of [1002, 1003]) {
      const refused = await app.call('GET', path, { token: await app.token(stranger) });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 404, body: missing.body });
    }
  });

  it('takes an MP4 with its index at the front, as web encoders write it', async () => {
    const answer = await app.upload<UploadedVideo>('/api/upload/video', [{ field: 'file', name: 'web.mp4', body: await video('mp4', 2, '320x240', true) }]);
    expect(answer.status).toBe(200);
    const done = await waitFor('the video job', async () => {
      const status = await app.call<JobStatus>('GET', `/api/upload/video/jobs/${answer.body.data.jobId}`, { token: await app.token() });
      if (status.body.data.state === 'failed') throw new Error(status.body.data.failedReason ?? 'failed');
      return status.body.data.state === 'completed' ? status.body.data : null;
    });
    expect(done.result).toMatchObject({ url: answer.body.data.url, width: 320, height: 240, durationSeconds: 2 });
  });

  it('keeps the cover the client sent instead of making one', async () => {
    const answer = await app.upload<UploadedVideo>('/api/upload/video', [
      { field: 'file', name: 'clip.mp4', body: await video('mp4', 1) },
      { field: 'thumbnail', name: 'cover.png', body: await image('png', 640, 360) },
    ]);
    expect(answer.body.data.coverUrl).toMatch(/^\/api\/files\/images\/[0-9a-f]{64}\.png$/);
    const done = await waitFor('the video job', async () => {
      const status = await app.call<JobStatus>('GET', `/api/upload/video/jobs/${answer.body.data.jobId}`, { token: await app.token() });
      return status.body.data.state === 'completed' ? status.body.data : null;
    });
    expect((done.result as { coverUrl: string }).coverUrl).toBe(answer.body.data.coverUrl);
  });
});
