import sharp from 'sharp';
import { image } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

/** A picture of 16,000 × 16,000 pixels, one colour: under 1 MB as a PNG, about 768 MB once decoded. */
const BOMB_SIDE = 16_000;

/**
 * Issue 35: what an upload may cost the service. A user's upload calls are counted (a flood is refused before its
 * body is read), and an image whose header declares more pixels than the limit is refused without being decoded.
 */
describe('uploads within their bounds (media service, real MinIO)', () => {
  let app: MediaTestApp;

  beforeAll(async () => {
    process.env.MEDIA_UPLOADS_PER_USER_PER_MINUTE = '5';
    app = await MediaTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers a user past the upload limit 429 with Retry-After, whatever the upload call, and counts each user apart', async () => {
    const token = await app.token(1101);
    const small = await image('png', 20, 20);
    for (const path of ['/api/upload/single', '/api/upload/single', '/api/upload/single', '/api/upload/single']) {
      expect((await app.upload(path, [{ field: 'file', name: 'a.png', body: small }], token)).status).toBe(200);
    }
    expect((await app.upload('/api/upload/image', [{ field: 'image', name: 'a.png', body: small }], token)).status).toBe(200);
    const stored = await app.bucket.keys();

    for (const [path, field] of [
      ['/api/upload/single', 'file'],
      ['/api/upload/image', 'image'],
      ['/api/upload/multiple', 'files'],
      ['/api/upload/video', 'file'],
    ]) {
      const refused = await app.upload<{ retryAfter: number }>(path, [{ field, name: 'b.png', body: await image('png', 21, 21) }], token);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.body).toEqual({ code: 429, message: `请求过于频繁，请稍后再试（${retryAfter}秒后可重试）`, data: { retryAfter } });
    }
    expect(await app.bucket.keys()).toEqual(stored);

    expect((await app.upload('/api/upload/single', [{ field: 'file', name: 'c.png', body: small }], await app.token(1102))).status).toBe(200);
    expect((await app.upload('/api/upload/single', [{ field: 'file', name: 'c.png', body: small }], await app.adminToken(1101))).status).toBe(200);
  });

  it('refuses an image of more pixels than the limit from its header, without decoding it, eight at once', async () => {
    const bomb = await sharp({ create: { width: BOMB_SIDE, height: BOMB_SIDE, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const tokens = await Promise.all(Array.from({ length: 8 }, (_, index) => app.token(1200 + index)));
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
    let answers;
    try {
      answers = await Promise.all(tokens.map((token) => app.upload('/api/upload/single', [{ field: 'file', name: '大图.png', body: bomb }], token)));
    } finally {
      clearInterval(sampler);
    }
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: 400, message: '图片尺寸为 16000×16000，超过 5000万 像素限制，请选择更小的图片', data: null });
    }
    // This process is the service: decoding even one of the eight would take 768 MB.
    const decodedBytes = BOMB_SIDE * BOMB_SIDE * 3;
    expect(peak - before).toBeLessThan(decodedBytes / 8);
    expect(await app.query(`SELECT "key" FROM "uploads" WHERE "owner_id" >= 1200`)).toEqual([]);
  });
});
