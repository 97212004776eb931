/** The spec's local-storage key and size of the search history (public-side.md §3, §4). */
export const HISTORY_KEY = 'searchHistory';
export const HISTORY_MAX = 5;

/** The history after searching `keyword`: trimmed, most recent first, de-duplicated, at most five; empty keeps it. */
export function addToHistory(history: string[], keyword: string): string[] {
  const word = keyword.trim();
  if (!word) return history;
  return [word, ...history.filter((each) => each !== word)].slice(0, HISTORY_MAX);
}

/** The history without one entry (edit mode). */
export function removeFromHistory(history: string[], keyword: string): string[] {
  return history.filter((each) => each !== keyword);
}

/** The stored history; anything unreadable counts as empty. */
export function readHistory(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string').slice(0, HISTORY_MAX) : [];
  } catch {
    return [];
  }
}

export function writeHistory(history: string[]): void {
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // Without storage the history lives for this page only.
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * A highlighted title from the server (escaped text with matches in `<em>`) as plain pieces to render as text:
 * nothing of it is ever inserted as markup, so whatever the title holds it cannot become an element.
 */
export function highlightParts(marked: string): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = [];
  let mark = false;
  for (const piece of marked.split(/(<em>|<\/em>)/)) {
    if (piece === '<em>') mark = true;
    else if (piece === '</em>') mark = false;
    else if (piece) parts.push({ text: piece.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity), mark });
  }
  return parts;
}
