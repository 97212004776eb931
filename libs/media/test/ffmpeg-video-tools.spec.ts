import { execFileSync } from 'node:child_process';
import { waitFor } from '@shiliu/platform/testing';
import sharp from 'sharp';
import { FfmpegVideoTools } from '../src/videos/ffmpeg.video-tools';
import { video } from './media-fixtures';
import { TestBucket } from './media-test-app';

/** The cover commands of this process's ffmpeg children that are waiting for a job (their input is a local address). */
function coversWaiting(): string[] {
  const lines = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)]).toString().split('\n');
  return lines.filter((line) => line.includes('ffmpeg') && /-i http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]{36} /.test(line));
}

/**
 * A worker's covers (real ffmpeg reading a clip from the real MinIO through a pre-signed URL): one cover command
 * is always started ahead of its job, and a job that takes it gets the same picture as from a fresh one.
 */
describe('FfmpegVideoTools covers, with a command started ahead', () => {
  const bucket = new TestBucket();
  const tools = new FfmpegVideoTools({ coversAhead: true });
  let location: string;

  beforeAll(async () => {
    await bucket.storage.put('videos/clip.mp4', await video('mp4', 3, '640x480'), 'video/mp4');
    location = await bucket.storage.readLocation('videos/clip.mp4', 600);
    await tools.warmUp();
  });

  afterAll(async () => {
    await tools.close();
    await bucket.drop();
  });

  async function size(jpeg: Buffer): Promise<[string | undefined, number | undefined, number | undefined]> {
    const metadata = await sharp(jpeg).metadata();
    return [metadata.format, metadata.width, metadata.height];
  }

  it('keeps one cover command waiting, hands it the next job at 1 s and starts the next one', async () => {
    const [waiting] = coversWaiting();
    expect(waiting).toBeDefined();
    const first = await tools.cover(location, 1, new AbortController().signal);
    expect(await size(first)).toEqual(['jpeg', 640, 360]);
    const [next] = coversWaiting();
    expect(next).toBeDefined();
    expect(next).not.toBe(waiting);

    const second = await tools.cover(location, 1, new AbortController().signal);
    expect(second.equals(first)).toBe(true);
  });

  it('starts a fresh command for a cover taken elsewhere than at 1 s, leaving the waiting one be', async () => {
    const [waiting] = coversWaiting();
    const early = await tools.cover(location, 0.5, new AbortController().signal);
    expect(await size(early)).toEqual(['jpeg', 640, 360]);
    expect(coversWaiting()).toEqual([waiting]);
  });

  it('fails with ffmpeg\'s reason for a source that is not there, and stops a cover whose job is cancelled', async () => {
    const missing = await bucket.storage.readLocation('videos/missing.mp4', 600);
    await expect(tools.cover(missing, 1, new AbortController().signal)).rejects.toThrow(/could not make the cover/);

    const controller = new AbortController();
    const cover = tools.cover(location, 1, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(cover).rejects.toThrow('cancelled');
    expect(coversWaiting()).toHaveLength(1);
  });

  it('stops the waiting command when closed', async () => {
    const closing = new FfmpegVideoTools({ coversAhead: true });
    await closing.warmUp();
    expect(coversWaiting()).toHaveLength(2);
    await closing.close();
    // ps shows a killed child until this process has reaped it.
    expect(await waitFor('the closed tools\' command to go', async () => coversWaiting().length === 1)).toBe(true);
  });
});
