import { plainText } from '@shiliu/platform';
import sanitizeHtml from 'sanitize-html';
import { ownObjectUrl } from './object-url';

/**
 * Rich text (note content, comments) is kept as HTML, so what one user writes is shown on another user's page.
 * Only this allow-list survives: no scripts, styles, frames, forms, SVG or MathML, no event handler or style
 * attribute, links only to http(s) and mailto (opened with rel=noopener), and images only from our own object
 * store. Anything else is removed, and the text of removed script-like elements goes with it.
 */
const richTextOptions: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'div', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'pre', 'code', 'hr', 'a', 'img'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'svg', 'math', 'iframe', 'object', 'embed', 'template', 'title', 'xmp', 'noembed', 'noframes'],
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
    img: (tagName, attribs) => {
      const src = ownObjectUrl(attribs.src);
      return { tagName, attribs: src ? { src, ...(attribs.alt ? { alt: attribs.alt } : {}) } : {} };
    },
  },
  // An image whose source is not one of our objects is dropped whole rather than kept without a source.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

const noMarkup: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard', nonTextTags: richTextOptions.nonTextTags };

/** Control characters go first, as from every plain-text field. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(plainText(html), richTextOptions).trim();
}

/** What sanitize-html escapes in text; undone so that plain text is text, not HTML. */
function unescapeText(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/**
 * Text without any markup, for titles, tags, search and length limits. Stripping is repeated until nothing
 * changes, so text that only becomes a tag once decoded (`&lt;img onerror=…&gt;`) is removed too: the result
 * never contains anything an HTML parser would take for a tag.
 */
export function toPlainText(input: string): string {
  let text = plainText(input).replace(/<br\s*\/?>|<\/(p|div|li|h[1-4]|blockquote|pre)>/gi, '\n');
  for (let round = 0; round < 5; round++) {
    const next = unescapeText(sanitizeHtml(text, noMarkup));
    if (next === text) break;
    text = next;
  }
  return text.replace(/\u00a0/g, ' ').trim();
}

/** A single-line plain text (titles, tags): markup removed, runs of white space made one space. */
export function toPlainLine(input: string): string {
  return toPlainText(input).replace(/\s+/g, ' ').trim();
}

/** Length in characters as a person counts them (an emoji is one), not in UTF-16 units. */
export function textLength(text: string): number {
  return Array.from(text).length;
}

/** The images (our own objects) that sanitised rich text embeds, in order. */
export function embeddedImages(sanitized: string): string[] {
  return [...sanitized.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]);
}

export interface MentionMarkup {
  nickname: string;
  userId: string;
}

/** `[@nickname:user_id]` (DESIGN.md §4), the user_id being a product ID: 3-15 letters, digits or underscores. */
const MENTION = /\[@([^[\]:<>\n]{1,30}):([A-Za-z0-9_]{3,15})\]/g;
export const MAX_MENTIONS = 20;

export function findMentions(text: string): MentionMarkup[] {
  return [...text.matchAll(MENTION)].map((match) => ({ nickname: match[1], userId: match[2] }));
}

/** Leaves the markup of known users (up to MAX_MENTIONS of them) and turns every other mention into plain `@nickname`. */
export function resolveMentions(text: string, known: ReadonlySet<string>): { text: string; userIds: string[] } {
  const kept: string[] = [];
  const resolved = text.replace(MENTION, (markup, nickname: string, userId: string) => {
    if (known.has(userId) && (kept.includes(userId) || kept.length < MAX_MENTIONS)) {
      if (!kept.includes(userId)) kept.push(userId);
      return markup;
    }
    return `@${nickname}`;
  });
  return { text: resolved, userIds: kept };
}
