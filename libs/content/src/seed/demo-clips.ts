import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileUrl, type ObjectStorage } from '@shiliu/platform';
import { renderSubject } from './demo-images';
import type { DemoSubject } from './demo-text';

const run = promisify(execFile);

/**
 * A four-second clip panning slowly across the subject's portrait picture (the video notes' cover), encoded by the
 * ffmpeg on this machine and stored beside the pictures; null where there is no ffmpeg (or no H.264 encoder), and the
 * note is then published with its pictures instead.
 */
export async function storeDemoClip(storage: ObjectStorage, subject: DemoSubject): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'shiliu-demo-clip-'));
  try {
    await writeFile(join(dir, 'frame.jpg'), await renderSubject(subject, 0));
    const pan = "crop=480:640:'120*t/4':'160*t/4',format=yuv420p";
    await run('ffmpeg', ['-v', 'error', '-loop', '1', '-i', 'frame.jpg', '-t', '4', '-r', '24', '-vf', pan, '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '30', '-movflags', '+faststart', 'clip.mp4'], { cwd: dir, timeout: 30_000 });
    const key = `demo/content/${subject}-clip.mp4`;
    await storage.put(key, await readFile(join(dir, 'clip.mp4')), 'video/mp4');
    return fileUrl(key);
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
