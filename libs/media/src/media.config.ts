import { loadConfig } from '@shiliu/platform';
import { z } from 'zod';

const limit = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Settings only the media service reads, validated when its module starts. */
export function loadMediaConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      /** Upload calls one user (student or administrator) may make per minute: a note's nine images and cover fit many times over. */
      MEDIA_UPLOADS_PER_USER_PER_MINUTE: limit(60),
      /** The most pixels an image may have (width × height × frames), read from its header before it is decoded. */
      MEDIA_IMAGE_MAX_PIXELS: limit(50_000_000),
    },
    env,
  );
}

export type MediaConfig = ReturnType<typeof loadMediaConfig>;
export const MEDIA_CONFIG = Symbol('MEDIA_CONFIG');
