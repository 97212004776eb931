import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

/** A noisy picture (noise does not compress, so sizes can be steered), in the given format. */
export async function image(format: 'jpeg' | 'png' | 'webp' | 'gif', width = 800, height = 600): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
  return base.toFormat(format).toBuffer();
}

/** A PNG of at least `bytes` bytes: random pixels stay as large as they are. */
export async function largePng(bytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(bytes / 3)) + 16;
  return image('png', side, side);
}

/**
 * A JPEG 64x48 as stored, with EXIF saying "rotate 90° clockwise to show" (so it is shown 48x64) and a GPS
 * position (31° 14′ N), written by hand so the test knows exactly which blocks are there.
 */
export async function jpegWithGps(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } }).jpeg().toBuffer();
  const tiff = Buffer.alloc(92);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  // IFD0: Orientation = 6, GPSInfo -> 38.
  tiff.writeUInt16LE(2, 8);
  entry(tiff, 10, 0x0112, 3, 1, 6);
  entry(tiff, 22, 0x8825, 4, 1, 38);
  tiff.writeUInt32LE(0, 34);
  // GPS IFD: GPSLatitudeRef "N", GPSLatitude three rationals at 68.
  tiff.writeUInt16LE(2, 38);
  entry(tiff, 40, 0x0001, 2, 2, 0);
  tiff.write('N\0', 48, 'latin1');
  entry(tiff, 52, 0x0002, 5, 3, 68);
  tiff.writeUInt32LE(0, 64);
  [31, 1, 14, 1, 0, 1].forEach((value, index) => tiff.writeUInt32LE(value, 68 + index * 4));
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
}

function entry(tiff: Buffer, at: number, tag: number, type: number, count: number, value: number): void {
  tiff.writeUInt16LE(tag, at);
  tiff.writeUInt16LE(type, at + 2);
  tiff.writeUInt32LE(count, at + 4);
  tiff.writeUInt32LE(value, at + 8);
}

/** Whether EXIF data holds a GPS block (the GPSInfo tag 0x8825, little- or big-endian). */
export function hasGps(exif: Buffer | undefined): boolean {
  return !!exif && (exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25])));
}

const videoCodecs = {
  mp4: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
  mov: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
  avi: ['-c:v', 'mpeg4', '-c:a', 'mp3'],
  wmv: ['-c:v', 'wmv2', '-c:a', 'wmav2'],
  flv: ['-c:v', 'flv1', '-c:a', 'mp3', '-ar', '44100'],
  webm: ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libvorbis'],
} as const;

export type VideoContainer = keyof typeof videoCodecs;

/**
 * A test-pattern clip with a tone, made by ffmpeg in the given container. MP4 and MOV have their index (`moov`)
 * after the media data, as cameras write them, unless `fastStart` moves it to the front, as web encoders do.
 */
export async function video(container: VideoContainer, seconds = 2, size = '320x240', fastStart = false): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), 'shiliu-fixture-'));
  try {
    const output = join(directory, `clip.${container}`);
    await run(process.env.FFMPEG_PATH ?? 'ffmpeg', [
      '-v', 'error',
      '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=25`,
      '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
      ...videoCodecs[container],
      ...(fastStart ? ['-movflags', '+faststart'] : []),
      '-shortest',
      output,
    ]);
    return await readFile(output);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
