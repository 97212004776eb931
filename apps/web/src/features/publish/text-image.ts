/** The text-image canvas and its text rules (public-side.md §9). */
export const TEXT_IMAGE = { width: 400, height: 600, maxText: 200, padding: 36, stroke: 3 } as const;

/** The font size by the longest line: up to 5 characters 55, up to 7 45, 8 40, 9 35, longer 30. */
export function fontSizeFor(lines: string[]): number {
  const longest = Math.max(0, ...lines.map((line) => [...line].length));
  if (longest <= 5) return 55;
  if (longest <= 7) return 45;
  if (longest === 8) return 40;
  if (longest === 9) return 35;
  return 30;
}

/** The line height that goes with a font size. */
export function lineHeightFor(fontSize: number): number {
  return fontSize + 10;
}

/**
 * The text's lines as drawn: the author's line breaks, each line broken again where it would pass the width
 * (`measure` gives a string's drawn width at the size in use).
 */
export function wrapText(text: string, maxWidth: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const char of paragraph) {
      if (line && measure(line + char) > maxWidth) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Whether the text holds one of the words, compared as the server compares (libs/platform normalizeForBannedWords):
 * markup tags, spaces and invisible characters removed, full-width forms half-width, lower case. The server's list
 * comes normalised.
 */
export function hasBannedWord(text: string, words: string[]): boolean {
  const plain = text.replace(/<[^>]*>/g, '').normalize('NFKC').toLowerCase().replace(/[\s\p{Cf}]+/gu, '');
  return words.some((word) => plain.includes(word));
}

/** The twelve fonts offered; the first (Microsoft YaHei) is the default, each falling back to the system's own. */
export const TEXT_FONTS: [string, string][] = [
  ['微软雅黑', '"Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC", sans-serif'],
  ['苹方', '"PingFang SC", "Noto Sans CJK SC", sans-serif'],
  ['黑体', 'SimHei, "Heiti SC", "Noto Sans CJK SC", sans-serif'],
  ['思源黑体', '"Noto Sans CJK SC", "Source Han Sans SC", sans-serif'],
  ['宋体', 'SimSun, "Songti SC", "Noto Serif CJK SC", serif'],
  ['思源宋体', '"Noto Serif CJK SC", "Source Han Serif SC", serif'],
  ['仿宋', 'FangSong, STFangsong, "Noto Serif CJK SC", serif'],
  ['楷体', 'KaiTi, STKaiti, "Kaiti SC", serif'],
  ['隶书', 'LiSu, "Baoli SC", serif'],
  ['幼圆', 'YouYuan, "Yuanti SC", sans-serif'],
  ['华文行楷', 'STXingkai, "Xingkai SC", cursive'],
  ['Arial', 'Arial, Helvetica, sans-serif'],
];

export const TEXT_COLOURS = ['#000000', '#ffffff', '#ff2442', '#ff8a00', '#ffd400', '#2fb36b', '#2d7ff9', '#8e5cf7'];
