import { Injectable } from '@nestjs/common';
import { encode } from 'blurhash';
import sharp, { type Sharp } from 'sharp';
import type { FileFormat } from '../uploads/file-format';

/** Longer side of the version shown in note details and the viewer (public-side.md §9). */
export const DISPLAY_MAX_SIDE = 1200;
/** Width of the feed-card version: a waterfall column is at most about 300 px wide, twice that for dense screens. */
export const THUMBNAIL_WIDTH = 480;
/**
 * The widths kept of each still image besides its display version, for `srcset`: a phone's two-column card (about
 * 180 px wide) at 2×, and that card at 3× or a phone's full-width detail at 2×. WebP only: AVIF took sharp two to
 * three times as long per width.
 */
export const SHOWN_WIDTHS = [400, 800] as const;

/** Where the version of `key` at `width` is stored: the key without its extension, then `.w400.webp`. */
export function widthKey(key: string, width: number): string {
  return `${key.replace(/\.[^./]+$/, '')}.w${width}.webp`;
}

/** A stored still image that widths are made of: not an animation, not itself a thumbnail or a width. */
export function hasWidths(key: string): boolean {
  return /\.(jpe?g|png|webp)$/i.test(key) && !/\.(thumb|w\d+)\.webp$/.test(key);
}

export interface ImageWidth {
  width: number;
  data: Buffer;
}

export interface ProcessedImage {
  display: Buffer;
  thumbnail: Buffer;
  /** The SHOWN_WIDTHS versions; none for an animated GIF, whose frames a still WebP would lose. */
  widths: ImageWidth[];
  width: number;
  height: number;
  /** A short string the web app paints as a blurred preview while the image loads. */
  blurhash: string;
}

/** The image is not one sharp can decode to the end (a truncated file, a broken header). */
export class UnreadableImageError extends Error {}

/**
 * Makes what is served of an uploaded image: turned upright by its EXIF orientation, then every metadata block
 * (EXIF with GPS, XMP, IPTC) left behind, since sharp writes none unless asked; a display version no larger than
 * 1200 px on its longer side in the uploaded format; a WebP thumbnail for feed cards and WebP versions at the
 * shown widths; the measures cards reserve.
 */
@Injectable()
export class ImageProcessor {
  /** The image's measures from its header alone, nothing decoded: what a limit on pixels is checked against. */
  async measure(path: string): Promise<{ width: number; height: number; frames: number }> {
    try {
      const { width, height, pages } = await sharp(path).metadata();
      return { width, height, frames: pages ?? 1 };
    } catch (error) {
      throw new UnreadableImageError(error instanceof Error ? error.message : String(error));
    }
  }

  async process(path: string, format: FileFormat): Promise<ProcessedImage> {
    const animated = format.extension === 'gif';
    const fitted = (image: Sharp) => image.resize(DISPLAY_MAX_SIDE, DISPLAY_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
    try {
      const open = (frames = animated): Sharp => sharp(path, { failOn: 'truncated', animated: frames }).rotate();
      // A still image is decoded, turned and fitted once; the display version, the thumbnail and the blurhash are
      // all made from those pixels, rather than each decoding the upload (or the display version) again. An
      // animated GIF keeps its frames, which raw pixels would not, so it is read once per version (its blurhash
      // from the first frame).
      const pixels = animated ? null : await fitted(open()).raw().toBuffer({ resolveWithObject: true });
      const fromPixels = (): Sharp | null =>
        pixels && sharp(pixels.data, { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } });
      const [display, thumbnail, small, widths] = await Promise.all([
        encodeAs(fromPixels() ?? fitted(open()), format).toBuffer({ resolveWithObject: true }),
        (fromPixels() ?? open()).resize(THUMBNAIL_WIDTH, null, { withoutEnlargement: true }).webp({ quality: 70 }).toBuffer(),
        (fromPixels() ?? fitted(open(false)))
          .resize(32, 32, { fit: 'inside' })
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true }),
        animated ? [] : encodeWidths(() => fromPixels() ?? open()),
      ]);
      return {
        display: display.data,
        thumbnail,
        widths,
        width: display.info.width,
        height: display.info.pageHeight ?? display.info.height,
        blurhash: encode(new Uint8ClampedArray(small.data), small.info.width, small.info.height, 4, 3),
      };
    } catch (error) {
      throw new UnreadableImageError(error instanceof Error ? error.message : String(error));
    }
  }

  /** The shown widths of an image stored before they were made (or stored around the upload path, as the demo's). */
  async widthsOf(stored: Buffer): Promise<ImageWidth[]> {
    try {
      const { data, info } = await sharp(stored, { failOn: 'truncated' }).rotate().raw().toBuffer({ resolveWithObject: true });
      return await encodeWidths(() => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }));
    } catch (error) {
      throw new UnreadableImageError(error instanceof Error ? error.message : String(error));
    }
  }
}

function encodeWidths(pixels: () => Sharp): Promise<ImageWidth[]> {
  return Promise.all(
    SHOWN_WIDTHS.map(async (width) => ({ width, data: await pixels().resize(width, null, { withoutEnlargement: true }).webp({ quality: 72 }).toBuffer() })),
  );
}

function encodeAs(image: Sharp, format: FileFormat): Sharp {
  switch (format.extension) {
    case 'png':
      return image.png();
    case 'webp':
      return image.webp({ quality: 85 });
    case 'gif':
      return image.gif();
    default:
      return image.jpeg({ quality: 85 });
  }
}
