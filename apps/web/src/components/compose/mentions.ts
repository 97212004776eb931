/** Nicknames picked in the @ picker, by the name shown in the text: the editor shows `@昵称`, the server gets markup. */
export type PickedMentions = Record<string, string>;

const MARKUP = /\[@([^:\]<>"]{1,30}):([A-Za-z0-9_]{1,30})\]/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The text as sent: each `@昵称` of a picked user becomes `[@昵称:user_id]` (DESIGN.md §4). Longer names are tried
 * first, so `@小柳柳` is not read as `@小柳` followed by 柳.
 */
export function encodeMentions(text: string, picked: PickedMentions): string {
  const names = Object.keys(picked).sort((a, b) => b.length - a.length);
  if (names.length === 0) return text;
  const pattern = new RegExp(`@(${names.map(escapeRegExp).join('|')})`, 'g');
  return text.replace(pattern, (_, name: string) => `[@${name}:${picked[name]}]`);
}

/** Stored text back to what the editor shows, with the mentions it held. */
export function decodeMentions(text: string): { text: string; picked: PickedMentions } {
  const picked: PickedMentions = {};
  const shown = text.replace(MARKUP, (_, name: string, userId: string) => {
    picked[name] = userId;
    return `@${name}`;
  });
  return { text: shown, picked };
}

/** The text with `insert` put at the caret (replacing any selection), and where the caret goes after it. */
export function insertAt(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
  return { text: text.slice(0, start) + insert + text.slice(end), caret: start + insert.length };
}
