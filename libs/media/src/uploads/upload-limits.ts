const MB = 1024 * 1024;

/** Upload limits (public-side.md §5 and §9). */
export const uploadLimits = {
  /** Each image, avatar and video cover. */
  imageBytes: 5 * MB,
  /** Above this an image is not read at all: 413 (the spec's "10 MB server-side cap"). */
  imageCapBytes: 10 * MB,
  imagesPerRequest: 9,
  videoBytes: 100 * MB,
} as const;

export function megabytes(bytes: number): string {
  return (bytes / MB).toFixed(2).replace(/\.?0+$/, '');
}
