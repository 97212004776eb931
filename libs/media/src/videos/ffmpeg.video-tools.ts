import ffmpeg, { type FfmpegCommand, type FfprobeData } from 'fluent-ffmpeg';
import { promisify } from 'node:util';
import { COVER_HEIGHT, COVER_WIDTH, type VideoProbe, type VideoTools } from './video-tools';

/** VideoTools over the `ffmpeg` and `ffprobe` binaries (FFMPEG_PATH and FFPROBE_PATH, else the PATH), through fluent-ffmpeg. */
export class FfmpegVideoTools implements VideoTools {
  /**
   * Has fluent-ffmpeg learn ffmpeg's formats and encoders now. It checks every command against them and asks
   * ffmpeg once per process (`-formats`, `-encoders`), which would otherwise add two ffmpeg starts to the
   * first job; a worker without a working ffmpeg also fails here, at start, rather than on its first job.
   */
  async warmUp(): Promise<void> {
    await promisify(ffmpeg.getAvailableFormats)();
    await promisify(ffmpeg.getAvailableEncoders)();
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

  cover(input: string, output: string, atSeconds: number, signal: AbortSignal): Promise<void> {
    return run(
      ffmpeg(input)
        .seekInput(atSeconds)
        .frames(1)
        .videoFilters([
          `scale=${COVER_WIDTH}:${COVER_HEIGHT}:force_original_aspect_ratio=decrease`,
          `pad=${COVER_WIDTH}:${COVER_HEIGHT}:(ow-iw)/2:(oh-ih)/2`,
        ])
        .outputOptions('-q:v', '3')
        .output(output),
      signal,
    );
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
