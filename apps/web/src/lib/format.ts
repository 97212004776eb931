/** A count as the spec shows it: 万 from 10,000 (one decimal), and on cards k from 1,000 (public-side.md §9). */
export function formatCount(value: number | null | undefined, withK = false): string {
  const n = value ?? 0;
  if (n >= 10_000) return `${trim(n / 10_000)}万`;
  if (withK && n >= 1_000) return `${trim(n / 1_000)}k`;
  return String(n);
}

function trim(value: number): string {
  return (Math.floor(value * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

/** Relative time by the spec's rules: 刚刚, minutes, hours under a day, days under a week, then MM-DD or YYYY-MM-DD. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '无效日期';
  const seconds = Math.max(0, (now.getTime() - at.getTime()) / 1000);
  if (seconds < 60) return '刚刚';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}分钟前`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}小时前`;
  if (seconds < 7 * 86_400) return `${Math.floor(seconds / 86_400)}天前`;
  const pad = (value: number) => String(value).padStart(2, '0');
  const day = `${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return at.getFullYear() === now.getFullYear() ? day : `${at.getFullYear()}-${day}`;
}

/** The theme colour's darker shade: each channel 10 percent darker (public-side.md §9). */
export function darken(hex: string, amount = 0.1): string {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return hex;
  const value = parseInt(match[1], 16);
  const channel = (shift: number) => Math.round(((value >> shift) & 0xff) * (1 - amount));
  return `#${[16, 8, 0].map((shift) => channel(shift).toString(16).padStart(2, '0')).join('')}`;
}
