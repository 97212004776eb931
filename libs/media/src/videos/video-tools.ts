/** What a probe learns of a video file. Codec names are ffprobe's (`h264`, `aac`, `vp9`, ...). */
export interface VideoProbe {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
}

/** The size of a generated cover and where it is taken (public-side.md §5 "Video": captured at 1 s, 640x360). */
export const COVER_WIDTH = 640;
export const COVER_HEIGHT = 360;
export const COVER_AT_SECONDS = 1;

/**
 * The video work the media service needs, behind an interface so that the library doing it (fluent-ffmpeg over
 * Debian's ffmpeg today) can be swapped and services can be unit-tested without it.
 */
export interface VideoTools {
  /** Rejects when the file is not a readable video (truncated, a script renamed `.mp4`). */
  probe(path: string): Promise<VideoProbe>;
  /**
   * A 640x360 JPEG of the frame at `atSeconds`, letterboxed to keep the picture's proportions, as its bytes (tens
   * of kilobytes); `input` is a path or a URL ffmpeg reads.
   */
  cover(input: string, atSeconds: number, signal: AbortSignal): Promise<Buffer>;
  /** H.264/AAC MP4 with the index at the front (fast start), so browsers play it while it downloads. */
  transcode(input: string, output: string, onProgress: (percent: number) => void, signal: AbortSignal): Promise<void>;
}

export const VIDEO_TOOLS = Symbol('VIDEO_TOOLS');

const browserVideoCodecs = ['h264', 'vp8', 'vp9', 'av1'];
const browserAudioCodecs = ['aac', 'mp3', 'opus', 'vorbis'];

/** Whether browsers play the file as it is: MP4, MOV or WebM with codecs they decode; AVI, WMV and FLV never. */
export function playableInBrowsers(extension: string, probe: VideoProbe): boolean {
  if (!['mp4', 'mov', 'webm'].includes(extension)) return false;
  return browserVideoCodecs.includes(probe.videoCodec) && (probe.audioCodec === null || browserAudioCodecs.includes(probe.audioCodec));
}
