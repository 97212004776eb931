import { defineEvent } from './event-definition';

/**
 * An uploaded video is ready to play: `video_url` is what browsers should load (the upload itself, or its H.264
 * MP4 when the upload was not playable in browsers) and `cover_url` its cover. Notes that name `source_url`
 * switch to these.
 */
export interface MediaVideoProcessedPayload {
  owner_id: number;
  source_url: string;
  video_url: string;
  cover_url: string;
  duration_seconds: number;
  width: number;
  height: number;
}

export const mediaVideoProcessed = defineEvent<MediaVideoProcessedPayload>({
  type: 'media.video.processed',
  version: 1,
  topic: 'shiliu.media',
  key: (p) => p.source_url,
});
