import type { ObjectStorage } from '@shiliu/platform';
import { fileUrl } from '@shiliu/platform';

/** Colour pairs for the demo images' gradients. */
const PALETTES: readonly [string, string][] = [
  ['#ff9a9e', '#fad0c4'],
  ['#a1c4fd', '#c2e9fb'],
  ['#fbc2eb', '#a6c1ee'],
  ['#84fab0', '#8fd3f4'],
  ['#f6d365', '#fda085'],
  ['#d4fc79', '#96e6a1'],
  ['#cfd9df', '#e2ebf0'],
  ['#ffecd2', '#fcb69f'],
  ['#a18cd1', '#fbc2eb'],
  ['#fccb90', '#d57eeb'],
  ['#e0c3fc', '#8ec5fc'],
  ['#43e97b', '#38f9d7'],
];

/** Portrait, square and landscape, as phone photos come. */
const SHAPES: readonly [number, number][] = [
  [600, 800],
  [640, 640],
  [800, 600],
];

/** A small deterministic generator, so the demo data is the same on every first start. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function artwork(width: number, height: number, [from, to]: [string, string], random: () => number): string {
  const shapes: string[] = [];
  for (let i = 0; i < 6; i++) {
    const x = Math.round(random() * width);
    const y = Math.round(random() * height);
    const r = Math.round(40 + random() * Math.min(width, height) * 0.3);
    shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" fill-opacity="${(0.12 + random() * 0.25).toFixed(2)}"/>`);
  }
  const hill = `<path d="M0 ${height * 0.75} Q ${width * 0.3} ${height * (0.55 + random() * 0.1)} ${width * 0.6} ${height * 0.72} T ${width} ${height * 0.68} V ${height} H 0 Z" fill="#ffffff" fill-opacity="0.35"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}${hill}</svg>`;
}

/**
 * Draws the demo images on this machine (no network) and stores them through the object-storage interface, as
 * uploads will be; answers their URLs. Keys are fixed, so a second run overwrites rather than piles up.
 */
export async function storeDemoImages(storage: ObjectStorage, count = 36): Promise<string[]> {
  // Loaded here only: a content process that never seeds keeps libvips (several MB of native memory) out of its RSS.
  const { default: sharp } = await import('sharp');
  const random = prng(20251122);
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const [width, height] = SHAPES[i % SHAPES.length];
    const svg = artwork(width, height, PALETTES[i % PALETTES.length], random);
    const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 72, mozjpeg: true }).toBuffer();
    const key = `demo/content/image-${String(i + 1).padStart(2, '0')}.jpg`;
    await storage.put(key, jpeg, 'image/jpeg');
    urls.push(fileUrl(key));
  }
  return urls;
}
