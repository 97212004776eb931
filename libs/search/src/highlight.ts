const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` as safe markup with every occurrence of each word (case aside) in `<em>`: the only tags in the answer are
 * the ones added here, whatever the text holds.
 */
export function highlight(text: string, words: string[]): string {
  const marks: [number, number][] = [];
  for (const word of words) {
    if (word === '') continue;
    for (const match of text.matchAll(new RegExp(escapeRegExp(word), 'giu'))) marks.push([match.index, match.index + match[0].length]);
  }
  marks.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of marks) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of merged) {
    out += `${escapeHtml(text.slice(at, start))}<em>${escapeHtml(text.slice(start, end))}</em>`;
    at = end;
  }
  return out + escapeHtml(text.slice(at));
}
