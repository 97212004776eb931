import { mediaService } from '@shiliu/media';
import { createServiceApp, type JobStatus, type ServiceApp } from '@shiliu/platform';
import { signUserToken, testServiceRuntime, waitFor } from '@shiliu/platform/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { InProcessUpstream, mergeOpenApi } from '@shiliu/gateway';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { testGateway } from './test-gateway';

const run = promisify(execFile);

async function mp4(): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), 'shiliu-gw-clip-'));
  try {
    const output = join(directory, 'clip.mp4');
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', output]);
    return await readFile(output);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The embedded default end to end for uploads: the gateway hands the multipart stream to media in process. */
describe('uploads through the gateway in embedded mode', () => {
  let media: ServiceApp;
  let gateway: NestExpressApplication;
  let base: string;
  let token: string;

  beforeAll(async () => {
    const runtime = await testServiceRuntime();
    token = await signUserToken(runtime.keys, 5001, 'user_5001');
    media = await createServiceApp(mediaService, runtime);
    gateway = await testGateway({
      mode: 'embedded',
      upstream: new InProcessUpstream({ media: media.handler }),
      revocations: runtime.revocations,
      probe: async () => ({ media: 'up' }),
      openApi: async () => mergeOpenApi([media.openApi]),
    });
    base = await gateway.getUrl();
  });

  afterAll(async () => {
    await gateway?.close();
    await media?.close();
  });

  async function upload<T>(path: string, field: string, name: string, body: Buffer): Promise<{ status: number; data: T }> {
    const form = new FormData();
    form.append(field, new Blob([body]), name);
    const answer = await fetch(`${base}${path}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, data: ((await answer.json()) as { data: T }).data };
  }

  it('stores an image and serves it back from the data directory', async () => {
    const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2a6' } }).png().toBuffer();
    const answer = await upload<{ url: string; width: number }>('/api/upload/image', 'image', 'a.png', png);
    expect(answer.status).toBe(200);
    expect(answer.data.width).toBe(320);
    const served = await fetch(`${base}${answer.data.url}`);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('takes a video, covers it in process, and answers ranges of it', async () => {
    const answer = await upload<{ url: string; jobId: string }>('/api/upload/video', 'file', 'clip.mp4', await mp4());
    expect(answer.status).toBe(200);
    const done = await waitFor('the video job', async () => {
      const status = (await (await fetch(`${base}/api/upload/video/jobs/${answer.data.jobId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: JobStatus };
      return status.data.state === 'completed' ? status.data : null;
    });
    expect((done.result as { coverUrl: string }).coverUrl).toMatch(/^\/api\/files\/covers\/[0-9a-f]{64}\.jpg$/);
    const part = await fetch(`${base}${answer.data.url}`, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toHaveLength(100);
  });
});
