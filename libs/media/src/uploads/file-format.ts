/** A file format we accept, recognised from the file's first bytes (never from its name or declared type). */
export interface FileFormat {
  kind: 'image' | 'video';
  extension: string;
  contentType: string;
}

/** How many leading bytes `formatOf` needs to recognise every accepted format. */
export const FORMAT_HEAD_BYTES = 64;

const ASF_HEADER = Buffer.from('3026b2758e66cf11a6d900aa0062ce6c', 'hex');
const EBML_HEADER = Buffer.from('1a45dfa3', 'hex');

const image = (extension: string, contentType: string): FileFormat => ({ kind: 'image', extension, contentType });
const video = (extension: string, contentType: string): FileFormat => ({ kind: 'video', extension, contentType });

/**
 * The format of a file from its magic bytes: JPEG, PNG, WebP and GIF images (public-side.md §5); MP4, MOV, AVI,
 * WMV, FLV and WebM videos. Anything else, a script renamed to `.jpg` included, is null.
 */
export function formatOf(head: Buffer): FileFormat | null {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return image('jpg', 'image/jpeg');
  if (head.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return image('png', 'image/png');
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return image('gif', 'image/gif');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return image('webp', 'image/webp');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return video('avi', 'video/x-msvideo');
  if (ascii(4, 8) === 'ftyp') return ascii(8, 12) === 'qt  ' ? video('mov', 'video/quicktime') : video('mp4', 'video/mp4');
  if (['moov', 'mdat', 'wide', 'free'].includes(ascii(4, 8))) return video('mov', 'video/quicktime');
  if (head.subarray(0, 16).equals(ASF_HEADER)) return video('wmv', 'video/x-ms-wmv');
  if (ascii(0, 3) === 'FLV' && head[3] === 0x01) return video('flv', 'video/x-flv');
  if (head.subarray(0, 4).equals(EBML_HEADER) && head.includes('webm', 4, 'latin1')) return video('webm', 'video/webm');
  return null;
}
