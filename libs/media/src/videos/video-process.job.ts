import { Inject, Injectable } from '@nestjs/common';
import { mediaVideoProcessed } from '@shiliu/contracts';
import { fileUrl, type JobContext, OBJECT_STORAGE, type ObjectStorage, Outbox } from '@shiliu/platform';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { type UploadRecord, UploadRepository } from '../uploads/upload.repository';
import { COVER_AT_SECONDS, playableInBrowsers, VIDEO_TOOLS, type VideoProbe, type VideoTools } from './video-tools';

/** The BullMQ queue of a media service: named after its schema, so that test instances never share one. */
export function mediaQueueName(schema: string): string {
  return `shiliu-${schema}-jobs`;
}

/**
 * An uploaded video to make ready: its stored source, what the upload's probe learnt of it (the job never
 * probes the same bytes a second time), and the cover the client sent, if any.
 */
export interface VideoProcessPayload {
  sourceKey: string;
  extension: string;
  sha256: string;
  ownerId: number;
  probe: VideoProbe;
  coverKey: string | null;
}

export interface VideoProcessResult {
  url: string;
  coverUrl: string;
  durationSeconds: number;
  width: number;
  height: number;
}

// A type alias, not an interface: only an alias is assignable to the queue's Record<string, object>.
export type MediaJobs = {
  'video.process': VideoProcessPayload;
};

/** How long ffmpeg may read the source in place: beyond any attempt's time limit (video-queue.ts, 15 minutes). */
const READ_LOCATION_SECONDS = 3600;

/**
 * Makes an uploaded video ready to play: a cover at 1 s unless the client sent one, an H.264/AAC MP4 when
 * browsers cannot play the upload, then `media.video.processed` through the outbox. Safe to run again after a
 * crash: every name is derived from the upload's content, so a second run overwrites the same objects.
 */
@Injectable()
export class VideoProcessJob {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(VIDEO_TOOLS) private readonly tools: VideoTools,
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly uploads: UploadRepository,
  ) {}

  async run(payload: VideoProcessPayload, context: JobContext): Promise<VideoProcessResult> {
    const directory = await mkdtemp(join(tmpdir(), 'shiliu-video-'));
    try {
      const { probe } = payload;
      // A source gone from storage fails with this plain reason, which the progress call shows, rather than with
      // ffmpeg's, which would quote the pre-signed URL. It is asked while the cover is being made, not before.
      const present = this.storage.stat(payload.sourceKey).then((info) => {
        if (!info) throw new Error(`source ${payload.sourceKey} not found`);
      });
      present.catch(() => undefined);
      // Progress is advisory: a lost update (Redis briefly away) is superseded by the next one.
      const report = (percent: number) => void context.progress(percent).catch(() => undefined);
      report(5);
      const transcoding = !playableInBrowsers(payload.extension, probe);
      const source = join(directory, `source.${payload.extension}`);
      const derived: UploadRecord[] = [];

      const coverKey = payload.coverKey ?? `covers/${payload.sha256}.jpg`;
      const makeCover = async () => {
        // ffmpeg reads the frames around the cover's time from storage in place instead of waiting for a copy.
        const input = await this.storage.readLocation(payload.sourceKey, READ_LOCATION_SECONDS);
        const jpeg = await this.tools.cover(input, Math.min(COVER_AT_SECONDS, probe.durationSeconds / 2), context.signal);
        await this.storage.put(coverKey, jpeg, 'image/jpeg');
        derived.push({ key: coverKey, ownerId: payload.ownerId, kind: 'cover', sourceKey: payload.sourceKey, size: jpeg.length });
      };
      // A transcode reads the whole upload, so it gets a local copy, fetched while the cover is made.
      const download = async () => pipeline(await this.storage.read(payload.sourceKey), createWriteStream(source));
      try {
        await Promise.all([payload.coverKey ? null : makeCover(), transcoding ? download() : null]);
      } finally {
        await present;
      }
      report(10);

      let videoKey = payload.sourceKey;
      if (transcoding) {
        videoKey = `videos/${payload.sha256}.mp4`;
        const video = join(directory, 'video.mp4');
        await this.tools.transcode(source, video, (percent) => report(10 + Math.floor(percent * 0.85)), context.signal);
        derived.push(await this.store(video, videoKey, 'video/mp4', 'video', payload));
      }

      const result: VideoProcessResult = {
        url: fileUrl(videoKey),
        coverUrl: fileUrl(coverKey),
        durationSeconds: probe.durationSeconds,
        width: probe.width,
        height: probe.height,
      };
      await this.dataSource.transaction(async (manager) => {
        await this.uploads.record(derived, manager);
        await this.outbox.add(manager, mediaVideoProcessed, {
          owner_id: payload.ownerId,
          source_url: fileUrl(payload.sourceKey),
          video_url: result.url,
          cover_url: result.coverUrl,
          duration_seconds: result.durationSeconds,
          width: result.width,
          height: result.height,
        });
      });
      await context.progress(100);
      return result;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  private async store(path: string, key: string, contentType: string, kind: UploadRecord['kind'], payload: VideoProcessPayload): Promise<UploadRecord> {
    await this.storage.put(key, createReadStream(path), contentType);
    return { key, ownerId: payload.ownerId, kind, sourceKey: payload.sourceKey, size: (await stat(path)).size };
  }
}
