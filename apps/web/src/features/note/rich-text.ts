const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** Mention markup `[@nickname:user_id]` as links to /user/{user_id} (DESIGN.md §4); the rest is left as it is. */
export function renderMentions(html: string): string {
  return html.replace(/\[@([^:\]]{1,30}):([A-Za-z0-9_]{1,30})\]/g, (_, nickname: string, userId: string) => `<a class="mention" href="/user/${userId}" target="_blank" rel="noreferrer">@${escapeHtml(nickname)}</a>`);
}

/** A comment's text (plain text from the server) as safe markup with its mentions linked. */
export function commentHtml(text: string): string {
  return renderMentions(escapeHtml(text).replace(/&amp;(?=#?\w+;)/g, '&')).replace(/\n/g, '<br>');
}
