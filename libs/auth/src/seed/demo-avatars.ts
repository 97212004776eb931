import { fileUrl, type ObjectStorage } from '@shiliu/platform';

/** What a demo account's avatar shows: a student's face, or the emblem of an official account. */
export type AvatarKind = 'student' | 'library' | 'union';

const SIZE = 200;
const SKIN = ['#f9d9c2', '#f3c9a8', '#e8b38f', '#d89f7a', '#fce3d0'];
const HAIR = ['#2b2118', '#3d2a1e', '#5a3b26', '#1c1c24', '#7a4a2a', '#b8763c'];
const BACKGROUND = ['#ffd6d6', '#ffe5b4', '#d4f1d4', '#cfe8ff', '#e6dcff', '#ffd9ec', '#d6f5f0', '#fff1b8', '#f5d5c8', '#dbe7c9'];

/** Short hair, long hair, a bun or a cap: drawn behind (long hair) and over the face. */
function hair(style: number, colour: string): { back: string; front: string } {
  switch (style) {
    case 0:
      return { back: '', front: `<path d="M56 92 Q58 44 100 42 Q142 44 144 92 Q132 66 100 64 Q72 64 56 92 Z" fill="${colour}"/>` };
    case 1:
      return {
        back: `<path d="M50 100 Q46 42 100 38 Q154 42 150 100 L154 168 Q128 178 100 176 Q72 178 46 168 Z" fill="${colour}"/>`,
        front: `<path d="M56 96 Q60 46 100 44 Q140 46 144 96 Q128 60 96 66 Q74 70 56 96 Z" fill="${colour}"/>`,
      };
    case 2:
      return {
        back: `<circle cx="100" cy="36" r="22" fill="${colour}"/>`,
        front: `<path d="M56 94 Q58 48 100 46 Q142 48 144 94 Q136 68 100 66 Q64 68 56 94 Z" fill="${colour}"/>`,
      };
    default:
      return {
        back: '',
        front: `<path d="M54 84 Q56 40 100 38 Q144 40 146 84 Z" fill="#4a7bd0"/><path d="M96 80 H170 Q172 90 160 92 H96 Z" fill="#3a66b5"/><circle cx="100" cy="40" r="5" fill="#ffffff"/>`,
      };
  }
}

/** A student: a face on a colour, with hair, eyes, a smile and a shirt collar; `seed` picks the combination. */
function studentSvg(seed: number): string {
  const skin = SKIN[seed % SKIN.length];
  const { back, front } = hair((seed >> 2) % 4, HAIR[(seed >> 1) % HAIR.length]);
  const shirt = ['#6c8cff', '#ff8a8a', '#58c29b', '#f5b94b', '#b48cf0', '#4fb6d6'][(seed >> 3) % 6];
  const glasses = seed % 5 === 0 ? '<g fill="none" stroke="#333" stroke-width="3"><circle cx="82" cy="104" r="11"/><circle cx="118" cy="104" r="11"/><path d="M93 104 H107"/></g>' : '';
  return `${back}<path d="M40 200 Q44 150 100 148 Q156 150 160 200 Z" fill="${shirt}"/><rect x="88" y="128" width="24" height="26" fill="${skin}"/>
    <ellipse cx="100" cy="100" rx="44" ry="48" fill="${skin}"/>${front}
    <circle cx="82" cy="104" r="5" fill="#2b2b33"/><circle cx="118" cy="104" r="5" fill="#2b2b33"/>
    <circle cx="72" cy="120" r="7" fill="#ff8f8f" fill-opacity="0.35"/><circle cx="128" cy="120" r="7" fill="#ff8f8f" fill-opacity="0.35"/>
    <path d="M88 124 Q100 134 112 124" fill="none" stroke="#b0524f" stroke-width="4" stroke-linecap="round"/>${glasses}`;
}

/** The library: an open book on deep blue. */
const librarySvg = `<path d="M100 70 Q72 56 40 62 V142 Q72 136 100 150 Q128 136 160 142 V62 Q128 56 100 70 Z" fill="#ffffff"/>
  <path d="M100 70 V150" stroke="#2d5bb8" stroke-width="4"/>
  <g stroke="#9db6e8" stroke-width="4" stroke-linecap="round"><path d="M54 82 Q74 78 90 86"/><path d="M54 100 Q74 96 90 104"/><path d="M54 118 Q74 114 90 122"/><path d="M110 86 Q126 78 146 82"/><path d="M110 104 Q126 96 146 100"/><path d="M110 122 Q126 114 146 118"/></g>`;

/** The student union: a gold star in a ring on red. */
const unionSvg = `<circle cx="100" cy="100" r="62" fill="none" stroke="#ffd75e" stroke-width="8"/>
  <polygon points="100,52 112,86 148,86 119,107 130,142 100,121 70,142 81,107 52,86 88,86" fill="#ffd75e"/>`;

export function avatarSvg(kind: AvatarKind, seed: number): string {
  const background = kind === 'library' ? '#2d5bb8' : kind === 'union' ? '#d9413b' : BACKGROUND[seed % BACKGROUND.length];
  const body = kind === 'library' ? librarySvg : kind === 'union' ? unionSvg : studentSvg(seed);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}"><rect width="${SIZE}" height="${SIZE}" fill="${background}"/>${body}</svg>`;
}

/** Draws a demo account's avatar (no network) and stores it where uploaded avatars go; answers its URL. */
export async function storeDemoAvatar(storage: ObjectStorage, userId: string, kind: AvatarKind, seed: number): Promise<string> {
  // Loaded here only: an auth process that never seeds keeps libvips out of its memory.
  const { default: sharp } = await import('sharp');
  const webp = await sharp(Buffer.from(avatarSvg(kind, seed))).webp({ quality: 80 }).toBuffer();
  const key = `demo/avatars/${userId}.webp`;
  await storage.put(key, webp, 'image/webp');
  return fileUrl(key);
}
