import ffmpeg, { type FfmpegCommand, type FfprobeData } from 'fluent-ffmpeg';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { COVER_AT_SECONDS, COVER_HEIGHT, COVER_WIDTH, type VideoProbe, type VideoTools } from './video-tools';

/** A cover command started ahead of its job: ffmpeg loaded, its first request for its input held until a job takes it. */
interface ReadyCover {
  token: string;
  child: ChildProcess;
  jpeg: Promise<Buffer>;
  held: ServerResponse | null;
}

/**
 * VideoTools over the `ffmpeg` and `ffprobe` binaries (FFMPEG_PATH and FFPROBE_PATH, else the PATH): covers by
 * spawning ffmpeg with the JPEG on its standard output, probes and transcodes through fluent-ffmpeg.
 */
export class FfmpegVideoTools implements VideoTools {
  private sources: Server | null = null;
  private ready: ReadyCover | null = null;
  /** Where each started-ahead cover's ffmpeg is sent once a job has taken it: its source's pre-signed URL. */
  private readonly locations = new Map<string, string>();
  private closed = false;

  /**
   * With `coversAhead` (a worker process), one cover command is always started before its job arrives: an ffmpeg
   * start loads some 200 shared libraries, as long as decoding the cover's frame, and the job then only waits
   * for the decoding. Its input is an address of this process that answers once a job has taken it, with a
   * redirect to the job's source; covers taken elsewhere than at 1 s, or from a local path, start ffmpeg then.
   */
  constructor(private readonly options: { coversAhead?: boolean } = {}) {}

  /**
   * Has fluent-ffmpeg learn ffmpeg's formats and encoders now. It checks every command against them and asks
   * ffmpeg once per process (`-formats`, `-encoders`), which would otherwise add two ffmpeg starts to the
   * first job; a worker without a working ffmpeg also fails here, at start, rather than on its first job.
   */
  async warmUp(): Promise<void> {
    await promisify(ffmpeg.getAvailableFormats)();
    await promisify(ffmpeg.getAvailableEncoders)();
    if (this.options.coversAhead) {
      this.sources = createServer((request, response) => this.answerSource(request.url ?? '', response));
      await new Promise<void>((resolve) => this.sources!.listen(0, '127.0.0.1', resolve));
      this.startCoverAhead();
    }
  }

  /** Stops the cover command started ahead, if any, and its address. */
  async close(): Promise<void> {
    this.closed = true;
    this.ready?.child.kill('SIGKILL');
    this.ready = null;
    if (!this.sources) return;
    this.sources.closeAllConnections();
    await new Promise((resolve) => this.sources!.close(resolve));
  }

  probe(path: string): Promise<VideoProbe> {
    return new Promise((resolve, reject) => {
      ffmpeg.ffprobe(path, (error: Error | null, data: FfprobeData) => {
        if (error) return reject(error);
        const video = data.streams.find((stream) => stream.codec_type === 'video');
        const audio = data.streams.find((stream) => stream.codec_type === 'audio');
        const duration = Number(data.format.duration);
        if (!video?.codec_name || !video.width || !video.height || !(duration > 0)) return reject(new Error('no readable video stream'));
        resolve({ durationSeconds: duration, width: video.width, height: video.height, videoCodec: video.codec_name, audioCodec: audio?.codec_name ?? null });
      });
    });
  }

  async cover(input: string, atSeconds: number, signal: AbortSignal): Promise<Buffer> {
    if (signal.aborted) throw signal.reason;
    const ahead = this.ready && atSeconds === COVER_AT_SECONDS && /^https?:\/\//.test(input) ? this.ready : null;
    let command: { child: ChildProcess; jpeg: Promise<Buffer> };
    if (ahead) {
      this.ready = null;
      this.locations.set(ahead.token, input);
      if (ahead.held) redirect(ahead.held, input);
      command = ahead;
    } else {
      command = startCover(input, atSeconds);
    }
    const abort = () => command.child.kill('SIGKILL');
    signal.addEventListener('abort', abort, { once: true });
    try {
      return await command.jpeg.catch((error: unknown) => {
        throw signal.aborted ? signal.reason : error;
      });
    } finally {
      signal.removeEventListener('abort', abort);
      if (ahead) this.locations.delete(ahead.token);
      this.startCoverAhead();
    }
  }

  private startCoverAhead(): void {
    if (!this.sources || this.ready || this.closed) return;
    const token = randomUUID();
    const command = startCover(`http://127.0.0.1:${(this.sources.address() as AddressInfo).port}/${token}`, COVER_AT_SECONDS);
    const ready: ReadyCover = { token, ...command, held: null };
    // One that ends before a job takes it (killed, its address gone) is replaced when the next cover is made.
    command.jpeg.catch(() => undefined);
    command.child.once('exit', () => {
      if (this.ready === ready) this.ready = null;
    });
    this.ready = ready;
  }

  /** ffmpeg asks for its input again at every seek: each time it is sent to the job's source. */
  private answerSource(path: string, response: ServerResponse): void {
    const token = path.slice(1);
    const location = this.locations.get(token);
    if (location) return redirect(response, location);
    if (this.ready?.token === token && !this.ready.held) {
      this.ready.held = response;
      return;
    }
    response.writeHead(404, { 'content-length': 0 }).end();
  }

  transcode(input: string, output: string, onProgress: (percent: number) => void, signal: AbortSignal): Promise<void> {
    const command = ffmpeg(input)
      .videoCodec('libx264')
      .audioCodec('aac')
      // Browsers decode 4:2:0 only; odd sizes are rounded down to even ones, which x264 requires.
      .outputOptions('-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-movflags', '+faststart')
      .format('mp4')
      .output(output)
      .on('progress', (progress: { percent?: number }) => {
        if (typeof progress.percent === 'number' && Number.isFinite(progress.percent)) onProgress(Math.max(0, Math.min(100, progress.percent)));
      });
    return run(command, signal);
  }
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location, 'content-length': 0 }).end();
}

/** The cover command, its JPEG read from ffmpeg's standard output rather than through a file. */
function startCover(input: string, atSeconds: number): { child: ChildProcess; jpeg: Promise<Buffer> } {
  const child = spawn(
    process.env.FFMPEG_PATH ?? 'ffmpeg',
    [
      '-v', 'error',
      '-ss', String(atSeconds),
      '-i', input,
      '-frames:v', '1',
      '-vf', `scale=${COVER_WIDTH}:${COVER_HEIGHT}:force_original_aspect_ratio=decrease,pad=${COVER_WIDTH}:${COVER_HEIGHT}:(ow-iw)/2:(oh-ih)/2`,
      '-q:v', '3',
      '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const jpeg = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const bytes = Buffer.concat(chunks);
      if (code === 0 && bytes.length > 0) resolve(bytes);
      else reject(new Error(`ffmpeg could not make the cover (${signal ?? `exit code ${code}`}): ${errors.trim()}`));
    });
  });
  return { child, jpeg };
}

function run(command: FfmpegCommand, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => command.kill('SIGKILL');
    signal.addEventListener('abort', abort, { once: true });
    command
      .on('end', () => {
        signal.removeEventListener('abort', abort);
        resolve();
      })
      .on('error', (error: Error) => {
        signal.removeEventListener('abort', abort);
        reject(signal.aborted ? signal.reason : error);
      })
      .run();
  });
}
