import type { ObjectStorage } from '@shiliu/platform';
import { fileUrl } from '@shiliu/platform';
import type { DemoSubject } from './demo-text';

/** Portrait, square and landscape, as phone photos come. */
const SHAPES: readonly [number, number][] = [
  [600, 800],
  [640, 640],
  [800, 600],
];

/** Drawings per subject: enough that a channel's notes do not all share one cover, few enough to draw in a second or two. */
const VARIANTS = 8;

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

/** A colour as hex from hue (degrees), saturation and lightness (0-100), so every drawing can vary its hues freely. */
function hsl(hue: number, saturation: number, lightness: number): string {
  const s = saturation / 100;
  const l = lightness / 100;
  const k = (n: number) => (n + hue / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return `#${[channel(0), channel(8), channel(4)].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
}

interface Canvas {
  w: number;
  h: number;
  /** The shorter side: sizes scale with it, so a drawing keeps its proportions in every shape. */
  u: number;
  random: () => number;
  /** A value between `from` and `to`. */
  between: (from: number, to: number) => number;
}

const vertical = (id: string, top: string, bottom: string) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;

/** A bowl of noodles seen from above on a table, with toppings and chopsticks. */
function noodles({ w, h, u, random, between }: Canvas): string {
  const table = hsl(between(15, 45), 35, between(70, 85));
  const cx = w / 2 + between(-0.05, 0.05) * w;
  const cy = h / 2 + between(-0.04, 0.06) * h;
  const r = u * 0.36;
  const broth = [hsl(18, 75, 48), hsl(35, 60, 62), hsl(8, 70, 45)][Math.floor(random() * 3)];
  const rim = hsl(between(180, 230), between(20, 50), between(85, 95));
  const parts = [`<rect width="${w}" height="${h}" fill="${table}"/>`];
  for (let x = 0; x < w; x += u * 0.12) parts.push(`<rect x="${x}" width="${u * 0.04}" height="${h}" fill="#ffffff" fill-opacity="0.18"/>`);
  parts.push(`<circle cx="${cx + u * 0.02}" cy="${cy + u * 0.03}" r="${r * 1.04}" fill="#000000" fill-opacity="0.15"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${rim}"/>`, `<circle cx="${cx}" cy="${cy}" r="${r * 0.94}" fill="none" stroke="${hsl(between(0, 360), 55, 55)}" stroke-width="${u * 0.012}"/>`);
  parts.push(`<circle cx="${cx}" cy="${cy}" r="${r * 0.82}" fill="${broth}"/>`);
  const noodle = hsl(45, 80, 78);
  for (let i = 0; i < 14; i++) {
    const y = cy - r * 0.55 + (i / 13) * r * 1.1;
    const half = Math.sqrt(Math.max(0, (r * 0.78) ** 2 - (y - cy) ** 2));
    let d = `M ${cx - half} ${y}`;
    const steps = 6;
    for (let s = 1; s <= steps; s++) d += ` Q ${cx - half + ((s - 0.5) / steps) * 2 * half} ${y + (s % 2 ? -1 : 1) * u * 0.03} ${cx - half + (s / steps) * 2 * half} ${y}`;
    parts.push(`<path d="${d}" fill="none" stroke="${noodle}" stroke-width="${u * 0.018}" stroke-linecap="round"/>`);
  }
  const eggAngle = between(0, Math.PI * 2);
  const ex = cx + Math.cos(eggAngle) * r * 0.4;
  const ey = cy + Math.sin(eggAngle) * r * 0.4;
  parts.push(`<ellipse cx="${ex}" cy="${ey}" rx="${u * 0.09}" ry="${u * 0.07}" fill="#fffaf0"/>`, `<circle cx="${ex}" cy="${ey}" r="${u * 0.04}" fill="${hsl(38, 95, 55)}"/>`);
  for (let i = 0; i < 3; i++) {
    const angle = eggAngle + 2 + i * 0.55;
    const mx = cx + Math.cos(angle) * r * 0.45;
    const my = cy + Math.sin(angle) * r * 0.45;
    parts.push(`<rect x="${mx - u * 0.07}" y="${my - u * 0.035}" width="${u * 0.14}" height="${u * 0.07}" rx="${u * 0.02}" fill="${hsl(15, 45, 35)}" transform="rotate(${between(-40, 40)} ${mx} ${my})"/>`);
  }
  for (let i = 0; i < 18; i++) {
    const angle = between(0, Math.PI * 2);
    const distance = between(0, r * 0.7);
    parts.push(`<circle cx="${cx + Math.cos(angle) * distance}" cy="${cy + Math.sin(angle) * distance}" r="${u * 0.012}" fill="${hsl(110, 60, 45)}" stroke="${hsl(100, 50, 75)}" stroke-width="${u * 0.005}"/>`);
  }
  const stickY = cy + r * between(-0.2, 0.2);
  parts.push(`<g transform="rotate(${between(-25, -10)} ${cx} ${stickY})">`);
  for (const offset of [0, u * 0.05]) parts.push(`<rect x="${cx - r * 0.2}" y="${stickY + offset}" width="${r * 1.9}" height="${u * 0.022}" rx="${u * 0.01}" fill="${hsl(30, 45, 45)}"/>`);
  parts.push('</g>');
  return parts.join('');
}

/** A stack of books on a desk by a window, with a mug. */
function books({ w, h, u, random, between }: Canvas): string {
  const wall = hsl(between(0, 360), 30, between(82, 92));
  const parts = [`<rect width="${w}" height="${h}" fill="${wall}"/>`];
  const wx = w * between(0.08, 0.5);
  parts.push(`<rect x="${wx}" y="${h * 0.08}" width="${u * 0.38}" height="${h * 0.4}" fill="${hsl(200, 70, 80)}" stroke="#ffffff" stroke-width="${u * 0.02}"/>`);
  parts.push(`<line x1="${wx + u * 0.19}" y1="${h * 0.08}" x2="${wx + u * 0.19}" y2="${h * 0.48}" stroke="#ffffff" stroke-width="${u * 0.015}"/>`);
  const deskY = h * 0.72;
  parts.push(`<rect y="${deskY}" width="${w}" height="${h - deskY}" fill="${hsl(28, 40, between(40, 55))}"/>`);
  const count = 4 + Math.floor(random() * 3);
  const baseX = w * between(0.2, 0.35);
  let y = deskY;
  for (let i = 0; i < count; i++) {
    const bw = u * between(0.42, 0.56);
    const bh = u * between(0.05, 0.08);
    y -= bh;
    const x = baseX + between(-0.03, 0.03) * u;
    const cover = hsl(between(0, 360), between(45, 70), between(35, 60));
    parts.push(`<rect x="${x}" y="${y}" width="${bw}" height="${bh}" rx="${u * 0.008}" fill="${cover}"/>`);
    parts.push(`<rect x="${x + bw * 0.86}" y="${y + bh * 0.15}" width="${bw * 0.12}" height="${bh * 0.7}" fill="#fdf8ec"/>`);
    parts.push(`<rect x="${x + bw * 0.1}" y="${y + bh * 0.4}" width="${bw * 0.3}" height="${bh * 0.18}" fill="#ffffff" fill-opacity="0.6"/>`);
  }
  const mx = Math.min(baseX + u * 0.62, w - u * 0.22);
  const mugTop = deskY - u * 0.17;
  parts.push(`<rect x="${mx}" y="${mugTop}" width="${u * 0.13}" height="${u * 0.17}" rx="${u * 0.015}" fill="${hsl(between(0, 360), 50, 70)}"/>`);
  parts.push(`<path d="M ${mx + u * 0.13} ${mugTop + u * 0.04} a ${u * 0.045} ${u * 0.045} 0 0 1 0 ${u * 0.09}" fill="none" stroke="${hsl(0, 0, 95)}" stroke-width="${u * 0.018}"/>`);
  for (const dx of [0.04, 0.08]) parts.push(`<path d="M ${mx + u * dx} ${mugTop - u * 0.02} q ${u * 0.03} ${-u * 0.04} 0 ${-u * 0.08} q ${-u * 0.03} ${-u * 0.04} 0 ${-u * 0.08}" fill="none" stroke="#ffffff" stroke-width="${u * 0.01}" stroke-opacity="0.8"/>`);
  parts.push(`<rect x="${baseX - u * 0.05}" y="${deskY + u * 0.06}" width="${u * 0.35}" height="${u * 0.018}" rx="${u * 0.009}" fill="${hsl(50, 85, 55)}" transform="rotate(-8 ${baseX} ${deskY})"/>`);
  return parts.join('');
}

/** A running track and its field under the sky, with trees on the horizon. */
function track({ w, h, u, between }: Canvas): string {
  const evening = between(0, 1) < 0.4;
  const sky = evening ? [hsl(260, 45, 55), hsl(25, 90, 70)] : [hsl(205, 75, 65), hsl(195, 60, 88)];
  const horizon = h * between(0.22, 0.32);
  const parts = [`<defs>${vertical('sky', sky[0], sky[1])}</defs>`, `<rect width="${w}" height="${horizon}" fill="url(#sky)"/>`];
  parts.push(`<circle cx="${w * between(0.15, 0.85)}" cy="${horizon * 0.55}" r="${u * 0.06}" fill="${evening ? '#ffd27a' : '#fffbe6'}"/>`);
  for (let x = -u * 0.05; x < w; x += u * between(0.07, 0.11)) parts.push(`<circle cx="${x}" cy="${horizon}" r="${u * between(0.04, 0.07)}" fill="${hsl(130, 40, between(28, 38))}"/>`);
  parts.push(`<rect y="${horizon}" width="${w}" height="${h - horizon}" fill="${hsl(120, 45, 42)}"/>`);
  const cx = w / 2;
  const cy = horizon + (h - horizon) * 0.58;
  const rx = w * 0.62;
  const ry = (h - horizon) * 0.5;
  parts.push(`<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${hsl(between(4, 16), 65, 50)}"/>`);
  const lanes = 6;
  for (let i = 0; i <= lanes; i++) {
    const k = 1 - (i / lanes) * 0.32;
    parts.push(`<ellipse cx="${cx}" cy="${cy}" rx="${rx * k}" ry="${ry * k}" fill="none" stroke="#ffffff" stroke-width="${u * 0.006}"/>`);
  }
  parts.push(`<ellipse cx="${cx}" cy="${cy}" rx="${rx * 0.66}" ry="${ry * 0.66}" fill="${hsl(110, 50, 45)}"/>`);
  for (let i = -3; i <= 3; i++) parts.push(`<rect x="${cx + i * rx * 0.18 - rx * 0.045}" y="${cy - ry * 0.66}" width="${rx * 0.09}" height="${ry * 1.32}" fill="#ffffff" fill-opacity="0.07"/>`);
  parts.push(`<line x1="${cx - rx * 0.98}" y1="${cy}" x2="${cx - rx * 0.66}" y2="${cy}" stroke="#ffffff" stroke-width="${u * 0.012}"/>`);
  return parts.join('');
}

/** A city skyline at day, dusk or night, mirrored in the water below it. */
function skyline({ w, h, u, random, between }: Canvas): string {
  const mood = Math.floor(random() * 3);
  const sky = [
    [hsl(200, 80, 60), hsl(190, 70, 88)],
    [hsl(280, 45, 45), hsl(20, 90, 68)],
    [hsl(230, 55, 14), hsl(245, 45, 35)],
  ][mood];
  const building = [hsl(215, 25, 40), hsl(270, 25, 25), hsl(230, 30, 10)][mood];
  const water = h * between(0.66, 0.74);
  const parts = [`<defs>${vertical('sky', sky[0], sky[1])}</defs>`, `<rect width="${w}" height="${h}" fill="url(#sky)"/>`];
  parts.push(`<circle cx="${w * between(0.15, 0.85)}" cy="${h * between(0.15, 0.3)}" r="${u * (mood === 2 ? 0.05 : 0.08)}" fill="${['#fff6d5', '#ffc27a', '#f4f1e1'][mood]}"/>`);
  if (mood === 2) for (let i = 0; i < 30; i++) parts.push(`<circle cx="${between(0, w)}" cy="${between(0, h * 0.45)}" r="${u * 0.004}" fill="#ffffff"/>`);
  parts.push(`<path d="M 0 ${water} L ${w * 0.2} ${water - h * 0.22} L ${w * 0.45} ${water - h * 0.1} L ${w * 0.7} ${water - h * 0.26} L ${w} ${water - h * 0.08} V ${water} Z" fill="${building}" fill-opacity="0.35"/>`);
  const city: string[] = [];
  for (let x = 0; x < w; ) {
    const bw = u * between(0.07, 0.14);
    const bh = h * between(0.12, 0.42);
    city.push(`<rect x="${x}" y="${water - bh}" width="${bw}" height="${bh}" fill="${building}"/>`);
    if (random() < 0.2) city.push(`<polygon points="${x + bw / 2},${water - bh - u * 0.08} ${x + bw * 0.4},${water - bh} ${x + bw * 0.6},${water - bh}" fill="${building}"/>`);
    const lit = mood === 2 ? '#ffd86b' : '#ffffff';
    for (let wy = water - bh + u * 0.03; wy < water - u * 0.03; wy += u * 0.045)
      for (let wx = x + u * 0.015; wx < x + bw - u * 0.025; wx += u * 0.035)
        if (random() < (mood === 2 ? 0.45 : 0.3)) city.push(`<rect x="${wx}" y="${wy}" width="${u * 0.016}" height="${u * 0.022}" fill="${lit}" fill-opacity="${mood === 2 ? 0.9 : 0.35}"/>`);
    x += bw + u * between(0, 0.02);
  }
  parts.push(...city);
  parts.push(`<rect y="${water}" width="${w}" height="${h - water}" fill="${[hsl(205, 55, 45), hsl(260, 30, 35), hsl(230, 40, 12)][mood]}"/>`);
  parts.push(`<g transform="translate(0 ${water * 2}) scale(1 -1)" opacity="0.3">${city.join('')}</g>`);
  for (let i = 0; i < 8; i++) parts.push(`<rect x="${between(0, w)}" y="${between(water + u * 0.02, h)}" width="${u * between(0.08, 0.2)}" height="${u * 0.006}" fill="#ffffff" fill-opacity="0.5"/>`);
  return parts.join('');
}

/** An outfit laid flat: a top, trousers or a skirt, sneakers and a bag. */
function outfit({ w, h, u, random, between }: Canvas): string {
  const parts = [`<rect width="${w}" height="${h}" fill="${hsl(between(0, 360), 30, between(86, 93))}"/>`];
  const top = hsl(between(0, 360), between(30, 65), between(55, 80));
  const bottom = hsl(between(200, 240), between(25, 55), between(25, 50));
  const cx = w * 0.42;
  const ty = h * 0.12;
  const s = u * 0.9;
  parts.push(
    `<path d="M ${cx - s * 0.12} ${ty} L ${cx - s * 0.3} ${ty + s * 0.08} L ${cx - s * 0.38} ${ty + s * 0.22} L ${cx - s * 0.26} ${ty + s * 0.26} L ${cx - s * 0.2} ${ty + s * 0.18} L ${cx - s * 0.2} ${ty + s * 0.46} L ${cx + s * 0.2} ${ty + s * 0.46} L ${cx + s * 0.2} ${ty + s * 0.18} L ${cx + s * 0.26} ${ty + s * 0.26} L ${cx + s * 0.38} ${ty + s * 0.22} L ${cx + s * 0.3} ${ty + s * 0.08} L ${cx + s * 0.12} ${ty} Q ${cx} ${ty + s * 0.08} ${cx - s * 0.12} ${ty} Z" fill="${top}"/>`,
  );
  if (random() < 0.5) for (let i = 1; i < 4; i++) parts.push(`<rect x="${cx - s * 0.2}" y="${ty + s * (0.12 + i * 0.08)}" width="${s * 0.4}" height="${s * 0.03}" fill="#ffffff" fill-opacity="0.5"/>`);
  const by = ty + s * 0.5;
  if (random() < 0.6) {
    parts.push(`<path d="M ${cx - s * 0.18} ${by} L ${cx + s * 0.18} ${by} L ${cx + s * 0.22} ${by + s * 0.5} L ${cx + s * 0.03} ${by + s * 0.5} L ${cx} ${by + s * 0.12} L ${cx - s * 0.03} ${by + s * 0.5} L ${cx - s * 0.22} ${by + s * 0.5} Z" fill="${bottom}"/>`);
    parts.push(`<line x1="${cx}" y1="${by}" x2="${cx}" y2="${by + s * 0.1}" stroke="#ffffff" stroke-opacity="0.4" stroke-width="${u * 0.005}"/>`);
  } else {
    parts.push(`<path d="M ${cx - s * 0.16} ${by} L ${cx + s * 0.16} ${by} L ${cx + s * 0.3} ${by + s * 0.36} L ${cx - s * 0.3} ${by + s * 0.36} Z" fill="${hsl(between(0, 360), 45, 45)}"/>`);
    for (let i = -2; i <= 2; i++) parts.push(`<line x1="${cx + i * s * 0.06}" y1="${by}" x2="${cx + i * s * 0.11}" y2="${by + s * 0.36}" stroke="#000000" stroke-opacity="0.12" stroke-width="${u * 0.006}"/>`);
  }
  const shoe = hsl(between(0, 360), 20, 96);
  const sx = w * 0.78;
  for (const dy of [0.62, 0.76]) {
    const sy = h * dy;
    parts.push(`<path d="M ${sx - u * 0.12} ${sy} Q ${sx - u * 0.12} ${sy - u * 0.07} ${sx - u * 0.04} ${sy - u * 0.07} L ${sx + u * 0.02} ${sy - u * 0.04} Q ${sx + u * 0.12} ${sy - u * 0.03} ${sx + u * 0.12} ${sy} Z" fill="${shoe}" stroke="${hsl(0, 0, 70)}" stroke-width="${u * 0.006}"/>`);
    parts.push(`<rect x="${sx - u * 0.125}" y="${sy - u * 0.012}" width="${u * 0.25}" height="${u * 0.02}" rx="${u * 0.01}" fill="${hsl(between(0, 360), 50, 55)}"/>`);
  }
  const bagX = w * 0.78;
  const bagY = h * 0.24;
  parts.push(`<path d="M ${bagX - u * 0.06} ${bagY} a ${u * 0.06} ${u * 0.07} 0 0 1 ${u * 0.12} 0" fill="none" stroke="${hsl(30, 40, 35)}" stroke-width="${u * 0.014}"/>`);
  parts.push(`<rect x="${bagX - u * 0.11}" y="${bagY}" width="${u * 0.22}" height="${u * 0.18}" rx="${u * 0.02}" fill="${hsl(between(20, 45), 45, between(45, 65))}"/>`);
  parts.push(`<circle cx="${w * 0.16}" cy="${h * 0.82}" r="${u * 0.05}" fill="none" stroke="${hsl(45, 70, 55)}" stroke-width="${u * 0.012}"/>`);
  return parts.join('');
}

/** A camera in front of a landscape at golden hour. */
function camera({ w, h, u, between }: Canvas): string {
  const hue = between(0, 360);
  const parts = [`<defs>${vertical('sky', hsl(hue, 45, 70), hsl((hue + 40) % 360, 60, 85))}</defs>`, `<rect width="${w}" height="${h}" fill="url(#sky)"/>`];
  parts.push(`<path d="M 0 ${h * 0.7} Q ${w * 0.3} ${h * 0.55} ${w * 0.6} ${h * 0.68} T ${w} ${h * 0.64} V ${h} H 0 Z" fill="${hsl((hue + 120) % 360, 30, 55)}"/>`);
  parts.push(`<path d="M 0 ${h * 0.82} Q ${w * 0.4} ${h * 0.72} ${w} ${h * 0.8} V ${h} H 0 Z" fill="${hsl((hue + 120) % 360, 30, 40)}"/>`);
  const cx = w / 2 + between(-0.06, 0.06) * w;
  const cy = h * 0.5;
  const bw = u * 0.62;
  const bh = u * 0.4;
  const body = hsl(between(0, 360), between(0, 25), between(15, 30));
  parts.push(`<rect x="${cx - bw / 2 + u * 0.015}" y="${cy - bh / 2 + u * 0.02}" width="${bw}" height="${bh}" rx="${u * 0.05}" fill="#000000" fill-opacity="0.2"/>`);
  parts.push(`<rect x="${cx - bw * 0.2}" y="${cy - bh / 2 - u * 0.06}" width="${bw * 0.3}" height="${u * 0.08}" rx="${u * 0.015}" fill="${body}"/>`);
  parts.push(`<rect x="${cx + bw * 0.22}" y="${cy - bh / 2 - u * 0.035}" width="${bw * 0.12}" height="${u * 0.04}" rx="${u * 0.01}" fill="${hsl(0, 70, 50)}"/>`);
  parts.push(`<rect x="${cx - bw / 2}" y="${cy - bh / 2}" width="${bw}" height="${bh}" rx="${u * 0.05}" fill="${body}"/>`);
  parts.push(`<rect x="${cx - bw / 2}" y="${cy - bh * 0.15}" width="${bw}" height="${bh * 0.45}" fill="${hsl(30, 25, 55)}" fill-opacity="0.55"/>`);
  parts.push(`<rect x="${cx - bw * 0.42}" y="${cy - bh * 0.4}" width="${bw * 0.14}" height="${bh * 0.14}" rx="${u * 0.01}" fill="#e8eef2"/>`);
  for (const [r, fill] of [[0.17, '#2a2a2a'], [0.14, '#555c66'], [0.1, '#1b2533'], [0.06, hsl(220, 60, 35)]] as [number, string][]) parts.push(`<circle cx="${cx}" cy="${cy + bh * 0.05}" r="${u * r}" fill="${fill}"/>`);
  parts.push(`<circle cx="${cx - u * 0.03}" cy="${cy + bh * 0.05 - u * 0.03}" r="${u * 0.022}" fill="#ffffff" fill-opacity="0.7"/>`);
  parts.push(`<path d="M ${cx - bw / 2} ${cy - bh * 0.3} Q ${cx - bw * 0.8} ${cy + bh} ${cx - bw * 0.3} ${h}" fill="none" stroke="${hsl(between(0, 360), 50, 45)}" stroke-width="${u * 0.025}"/>`);
  return parts.join('');
}

/** The campus in summer, autumn or snow: a teaching building with a clock tower, trees, the lawn and its cat. */
function campus({ w, h, u, random, between }: Canvas): string {
  const season = Math.floor(random() * 3);
  const parts = [`<defs>${vertical('sky', hsl(205, 70, between(60, 72)), hsl(200, 60, 90))}</defs>`, `<rect width="${w}" height="${h}" fill="url(#sky)"/>`];
  for (let i = 0; i < 3; i++) {
    const x = between(0, w);
    const y = between(h * 0.05, h * 0.25);
    parts.push(`<ellipse cx="${x}" cy="${y}" rx="${u * 0.12}" ry="${u * 0.035}" fill="#ffffff" fill-opacity="0.85"/>`);
  }
  const ground = h * 0.68;
  const wall = hsl(between(0, 30), between(30, 50), between(55, 70));
  const bx = w * between(0.15, 0.25);
  const bw = w * between(0.5, 0.7);
  const bh = h * 0.26;
  parts.push(`<rect x="${bx}" y="${ground - bh}" width="${bw}" height="${bh}" fill="${wall}"/>`);
  parts.push(`<polygon points="${bx - u * 0.03},${ground - bh} ${bx + bw / 2},${ground - bh - u * 0.08} ${bx + bw + u * 0.03},${ground - bh}" fill="${hsl(200, 15, 35)}"/>`);
  const tx = bx + bw / 2;
  parts.push(`<rect x="${tx - u * 0.07}" y="${ground - bh - u * 0.3}" width="${u * 0.14}" height="${u * 0.3}" fill="${wall}"/>`);
  parts.push(`<polygon points="${tx - u * 0.09},${ground - bh - u * 0.3} ${tx},${ground - bh - u * 0.42} ${tx + u * 0.09},${ground - bh - u * 0.3}" fill="${hsl(200, 15, 35)}"/>`);
  parts.push(`<circle cx="${tx}" cy="${ground - bh - u * 0.2}" r="${u * 0.045}" fill="#ffffff"/>`, `<path d="M ${tx} ${ground - bh - u * 0.23} V ${ground - bh - u * 0.2} H ${tx + u * 0.025}" stroke="#333333" stroke-width="${u * 0.006}" fill="none"/>`);
  for (let row = 0; row < 3; row++)
    for (let col = 0; col < 8; col++) {
      const wx = bx + bw * (0.06 + col * 0.115);
      if (Math.abs(wx + bw * 0.03 - tx) < u * 0.06) continue;
      parts.push(`<rect x="${wx}" y="${ground - bh + bh * (0.15 + row * 0.27)}" width="${bw * 0.06}" height="${bh * 0.16}" fill="${hsl(205, 50, 82)}"/>`);
    }
  parts.push(`<rect x="${tx - u * 0.04}" y="${ground - bh * 0.25}" width="${u * 0.08}" height="${bh * 0.25}" fill="${hsl(25, 35, 30)}"/>`);
  parts.push(`<rect y="${ground}" width="${w}" height="${h - ground}" fill="${[hsl(110, 45, 48), hsl(75, 45, 48), '#eef3f7'][season]}"/>`);
  parts.push(`<path d="M ${tx - u * 0.05} ${ground} L ${tx - u * 0.2} ${h} L ${tx + u * 0.2} ${h} L ${tx + u * 0.05} ${ground} Z" fill="${hsl(35, 25, 78)}"/>`);
  for (const x of [w * 0.07, w * 0.93, w * between(0.25, 0.35)]) {
    const ty = ground + between(0, 0.06) * h;
    parts.push(`<rect x="${x - u * 0.015}" y="${ty - u * 0.12}" width="${u * 0.03}" height="${u * 0.14}" fill="${hsl(25, 40, 30)}"/>`);
    parts.push(`<circle cx="${x}" cy="${ty - u * 0.18}" r="${u * 0.1}" fill="${[hsl(125, 45, 35), hsl(45, 85, 55), hsl(150, 25, 30)][season]}"/>`);
    if (season === 2) parts.push(`<ellipse cx="${x}" cy="${ty - u * 0.24}" rx="${u * 0.08}" ry="${u * 0.04}" fill="#ffffff"/>`);
  }
  const catX = w * between(0.6, 0.8);
  const catY = h * 0.86;
  const fur = random() < 0.6 ? hsl(30, 80, 55) : hsl(0, 0, 25);
  parts.push(`<ellipse cx="${catX}" cy="${catY}" rx="${u * 0.07}" ry="${u * 0.045}" fill="${fur}"/>`, `<circle cx="${catX - u * 0.07}" cy="${catY - u * 0.04}" r="${u * 0.035}" fill="${fur}"/>`);
  parts.push(`<polygon points="${catX - u * 0.1},${catY - u * 0.06} ${catX - u * 0.095},${catY - u * 0.095} ${catX - u * 0.075},${catY - u * 0.07}" fill="${fur}"/>`, `<polygon points="${catX - u * 0.065},${catY - u * 0.07} ${catX - u * 0.045},${catY - u * 0.095} ${catX - u * 0.04},${catY - u * 0.06}" fill="${fur}"/>`);
  parts.push(`<path d="M ${catX + u * 0.065} ${catY} q ${u * 0.06} ${-u * 0.02} ${u * 0.04} ${-u * 0.08}" stroke="${fur}" stroke-width="${u * 0.015}" fill="none" stroke-linecap="round"/>`);
  return parts.join('');
}

/** A stage at night: coloured spotlights, a performer with a microphone and the crowd's raised hands. */
function stage({ w, h, u, random, between }: Canvas): string {
  const hue = between(0, 360);
  const parts = [`<defs>${vertical('bg', hsl(hue, 50, 8), hsl((hue + 30) % 360, 55, 22))}</defs>`, `<rect width="${w}" height="${h}" fill="url(#bg)"/>`];
  for (let i = 0; i < 5; i++) {
    const x = w * (0.1 + i * 0.2);
    const light = hsl((hue + i * 60) % 360, 90, 65);
    const target = w * between(0.2, 0.8);
    parts.push(`<polygon points="${x},0 ${target - u * 0.14},${h * 0.72} ${target + u * 0.14},${h * 0.72}" fill="${light}" fill-opacity="0.22"/>`);
    parts.push(`<circle cx="${x}" cy="${u * 0.02}" r="${u * 0.025}" fill="${light}"/>`);
  }
  for (let i = 0; i < 25; i++) parts.push(`<circle cx="${between(0, w)}" cy="${between(0, h * 0.6)}" r="${u * between(0.003, 0.008)}" fill="#ffffff" fill-opacity="0.7"/>`);
  const floor = h * 0.7;
  parts.push(`<rect y="${floor}" width="${w}" height="${u * 0.03}" fill="${hsl(hue, 30, 40)}"/>`);
  const px = w * between(0.4, 0.6);
  const figure = '#111118';
  parts.push(`<circle cx="${px}" cy="${floor - u * 0.3}" r="${u * 0.04}" fill="${figure}"/>`);
  parts.push(`<path d="M ${px - u * 0.05} ${floor - u * 0.25} L ${px + u * 0.05} ${floor - u * 0.25} L ${px + u * 0.04} ${floor - u * 0.1} L ${px + u * 0.05} ${floor} L ${px + u * 0.015} ${floor} L ${px} ${floor - u * 0.08} L ${px - u * 0.015} ${floor} L ${px - u * 0.05} ${floor} L ${px - u * 0.04} ${floor - u * 0.1} Z" fill="${figure}"/>`);
  parts.push(`<line x1="${px + u * 0.05}" y1="${floor - u * 0.23}" x2="${px + u * 0.1}" y2="${floor - u * 0.33}" stroke="${figure}" stroke-width="${u * 0.022}" stroke-linecap="round"/>`);
  parts.push(`<line x1="${px + u * 0.09}" y1="${floor}" x2="${px + u * 0.09}" y2="${floor - u * 0.28}" stroke="#333344" stroke-width="${u * 0.008}"/>`, `<circle cx="${px + u * 0.09}" cy="${floor - u * 0.29}" r="${u * 0.015}" fill="#666677"/>`);
  for (let x = -u * 0.03; x < w + u * 0.05; x += u * between(0.07, 0.1)) {
    const y = h - u * between(0.04, 0.12);
    parts.push(`<circle cx="${x}" cy="${y}" r="${u * 0.05}" fill="#07070c"/>`, `<rect x="${x - u * 0.07}" y="${y + u * 0.03}" width="${u * 0.14}" height="${h - y}" rx="${u * 0.04}" fill="#07070c"/>`);
    if (random() < 0.35) parts.push(`<line x1="${x + u * 0.04}" y1="${y}" x2="${x + u * 0.07}" y2="${y - u * 0.15}" stroke="#07070c" stroke-width="${u * 0.022}" stroke-linecap="round"/>`);
    if (random() < 0.15) parts.push(`<rect x="${x + u * 0.05}" y="${y - u * 0.2}" width="${u * 0.035}" height="${u * 0.06}" rx="${u * 0.006}" fill="#ffffff" fill-opacity="0.85"/>`);
  }
  return parts.join('');
}

const painters: Record<DemoSubject, (canvas: Canvas) => string> = { noodles, books, track, skyline, outfit, camera, campus, stage };

/** The drawing of a subject as SVG, in one of the three photo shapes; each seed gives another colouring and layout. */
export function drawSubject(subject: DemoSubject, [w, h]: [number, number], seed: number): string {
  const random = prng(seed);
  const between = (from: number, to: number) => from + random() * (to - from);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${painters[subject]({ w, h, u: Math.min(w, h), random, between })}</svg>`;
}

/** The `variant`-th picture of a subject as JPEG; variant 0 is portrait. */
export async function renderSubject(subject: DemoSubject, variant: number): Promise<Buffer> {
  // Loaded here only: a content process that never seeds keeps libvips (several MB of native memory) out of its RSS.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(drawSubject(subject, SHAPES[variant % SHAPES.length], Math.imul(variant + 1, 0x9e3779b1)))).jpeg({ quality: 78 }).toBuffer();
}

/** Where the `variant`-th picture of a subject is stored. */
const demoImageKey = (subject: DemoSubject, variant: number) => `demo/content/${subject}-${variant + 1}.jpg`;

/**
 * Draws each subject's images on this machine (no network) and stores them through the object-storage interface, as
 * uploads will be; answers their URLs by subject. Keys are fixed, so a second run overwrites rather than piles up.
 */
export async function storeDemoImages(storage: ObjectStorage, subjects: readonly DemoSubject[]): Promise<Map<DemoSubject, string[]>> {
  const drawn = new Map<DemoSubject, string[]>();
  for (const subject of subjects) {
    const urls: string[] = [];
    for (let i = 0; i < VARIANTS; i++) {
      const key = demoImageKey(subject, i);
      await storage.put(key, await renderSubject(subject, i), 'image/jpeg');
      urls.push(fileUrl(key));
    }
    drawn.set(subject, urls);
  }
  return drawn;
}
