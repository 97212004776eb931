import { defineEvent } from './event-definition';

/**
 * An uploaded image is stored: its display size, the thumbnail for feed cards and a blurhash placeholder, so that
 * notes using it can reserve the card's space and paint a blurred preview before the image loads.
 */
export interface MediaImageProcessedPayload {
  owner_id: number;
  url: string;
  width: number;
  height: number;
  blurhash: string;
  thumbnail_url: string;
}

export const mediaImageProcessed = defineEvent<MediaImageProcessedPayload>({
  type: 'media.image.processed',
  version: 1,
  topic: 'shiliu.media',
  key: (p) => p.url,
});
