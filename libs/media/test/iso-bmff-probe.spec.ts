import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BrokenVideoError, probeIsoBmff } from '../src/videos/iso-bmff.probe';
import { video } from './media-fixtures';

const run = promisify(execFile);

/**
 * The upload's in-process MP4/MOV reader against clips made by the real ffmpeg and what ffprobe says of them: the
 * same duration, picture size and codec names, and a refusal of every cut-off copy, so that the upload call never
 * needs ffprobe for these containers.
 */
describe('probeIsoBmff (clips made by ffmpeg, compared with ffprobe)', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'shiliu-iso-bmff-'));
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function saved(name: string, bytes: Buffer): Promise<string> {
    const path = join(directory, name);
    await writeFile(path, bytes);
    return path;
  }

  async function ffprobe(path: string) {
    const { stdout } = await run(process.env.FFPROBE_PATH ?? 'ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,codec_name,width,height', '-of', 'json', path]);
    const parsed = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_type: string; codec_name: string; width?: number; height?: number }[] };
    const picture = parsed.streams.find((stream) => stream.codec_type === 'video')!;
    return {
      durationSeconds: Number(parsed.format.duration),
      width: picture.width,
      height: picture.height,
      videoCodec: picture.codec_name,
      audioCodec: parsed.streams.find((stream) => stream.codec_type === 'audio')?.codec_name ?? null,
    };
  }

  it.each([
    ['an MP4 with its index at the end', 'mp4', false],
    ['an MP4 with its index at the front', 'mp4', true],
    ['a MOV with its index at the end', 'mov', false],
    ['a MOV with its index at the front', 'mov', true],
  ] as const)('reads %s as ffprobe does, and refuses it cut off anywhere', async (_, container, fastStart) => {
    const bytes = await video(container, 3, '480x270', fastStart);
    const whole = await saved(`whole.${container}`, bytes);
    const expected = await ffprobe(whole);
    expect(expected).toMatchObject({ width: 480, height: 270, videoCodec: 'h264', audioCodec: 'aac' });
    const probe = await probeIsoBmff(whole);
    expect(probe).toEqual({ ...expected, durationSeconds: expect.any(Number) });
    expect(probe!.durationSeconds).toBeCloseTo(expected.durationSeconds, 1);

    const moov = bytes.indexOf('moov');
    const mdat = bytes.indexOf('mdat');
    expect(fastStart ? moov < mdat : moov > mdat).toBe(true);
    for (const length of [bytes.length - 1, Math.max(moov, mdat) + 100, Math.floor(bytes.length / 2), Math.min(moov, mdat) + 8, 7]) {
      await expect(probeIsoBmff(await saved(`cut-${length}.${container}`, bytes.subarray(0, length)))).rejects.toBeInstanceOf(BrokenVideoError);
    }
  });

  it('reads an MP3 sound track and a clip without sound', async () => {
    const path = await saved('mp3.mp4', await video('mp4', 2));
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-v', 'error', '-y', '-i', path, '-c:v', 'copy', '-c:a', 'libmp3lame', join(directory, 'with-mp3.mp4')]);
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-v', 'error', '-y', '-i', path, '-c:v', 'copy', '-an', join(directory, 'silent.mp4')]);
    expect(await probeIsoBmff(join(directory, 'with-mp3.mp4'))).toMatchObject({ videoCodec: 'h264', audioCodec: 'mp3' });
    expect(await probeIsoBmff(join(directory, 'silent.mp4'))).toMatchObject({ videoCodec: 'h264', audioCodec: null, width: 320, height: 240 });
  });

  it('leaves to ffprobe what it does not name, and refuses a file with boxes but no index or no picture', async () => {
    const mpeg4 = await saved('mpeg4.mp4', await video('mp4', 1));
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-v', 'error', '-y', '-i', mpeg4, '-c:v', 'mjpeg', '-an', join(directory, 'mjpeg.mov')]);
    expect(await probeIsoBmff(join(directory, 'mjpeg.mov'))).toBeNull();

    const box = (type: string, body: Buffer) => {
      const header = Buffer.alloc(8);
      header.writeUInt32BE(8 + body.length, 0);
      header.write(type, 4, 'latin1');
      return Buffer.concat([header, body]);
    };
    const noIndex = Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isom', 'latin1')), box('mdat', Buffer.alloc(64))]);
    await expect(probeIsoBmff(await saved('no-index.mp4', noIndex))).rejects.toThrow('no moov box');

    const sound = await saved('sound.mp4', await video('mp4', 1));
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-v', 'error', '-y', '-i', sound, '-vn', '-c:a', 'copy', join(directory, 'sound-only.mp4')]);
    await expect(probeIsoBmff(join(directory, 'sound-only.mp4'))).rejects.toThrow('no video track');
  });
});
