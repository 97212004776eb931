const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/**
 * Mention markup `[@nickname:user_id]` in markup (already escaped) as links to /user/{user_id} (DESIGN.md §4).
 * The name may hold no markup characters, so it is copied as it stands.
 */
export function renderMentions(html: string): string {
  return html.replace(/\[@([^:\]<>"]{1,30}):([A-Za-z0-9_]{1,30})\]/g, (_, nickname: string, userId: string) => `<a class="mention" href="/user/${userId}" target="_blank" rel="noreferrer">@${nickname}</a>`);
}

/** A comment's plain text as safe markup: escaped, mentions linked, line breaks kept. */
export function commentHtml(text: string): string {
  return renderMentions(escapeHtml(text)).replace(/\n/g, '<br>');
}

/**
 * A comment's content as the server keeps it (sanitised rich text, public-side.md §3) as markup for its text: the
 * images it embeds are left out (the list shows them as thumbnails from the comment's images), mentions linked,
 * line breaks kept.
 */
export function commentBodyHtml(content: string): string {
  return renderMentions(content.replace(/<img\b[^>]*>/g, '')).replace(/\n/g, '<br>');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * Stored rich text (a note's or comment's sanitised markup, mention markup inside) as the words a reader sees, for
 * places that show a line of text rather than the note: paragraphs and breaks become spaces, images and tags go,
 * entities are decoded and a mention reads as @昵称.
 */
export function richTextToPlain(content: string): string {
  return content
    .replace(/<img\b[^>]*>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\[@([^:\]<>"]{1,30}):[A-Za-z0-9_]{1,30}\]/g, '@$1')
    .replace(/\s+/g, ' ')
    .trim();
}
