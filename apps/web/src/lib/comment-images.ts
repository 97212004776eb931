import { imageProblem, imageSlots } from './images';
import { escapeHtml } from './rich-text';

/** An image attached to a comment being written (public-side.md §3 "Comment image attachment"). */
export interface CommentImage {
  id: string;
  file: File | null;
  preview: string;
  uploaded: boolean;
  url: string | null;
}

export type AttachmentAction =
  | { type: 'add'; images: CommentImage[] }
  | { type: 'uploaded'; id: string; url: string }
  | { type: 'failed'; id: string }
  | { type: 'remove'; id: string }
  | { type: 'set'; images: CommentImage[] };

/** The composer's attachments: added as local previews, given their address once uploaded, dropped when that fails. */
export function attachments(state: CommentImage[], action: AttachmentAction): CommentImage[] {
  switch (action.type) {
    case 'add':
      return [...state, ...action.images];
    case 'uploaded':
      return state.map((image) => (image.id === action.id ? { ...image, uploaded: true, url: action.url } : image));
    case 'failed':
    case 'remove':
      return state.filter((image) => image.id !== action.id);
    case 'set':
      return action.images;
  }
}

/** Which of the chosen files may be attached next to `present` images, and the messages for the rest (the publish page's rules). */
export function acceptImages<F extends { name: string; type: string; size: number }>(present: number, files: F[]): { accepted: F[]; messages: string[] } {
  const { take, message } = imageSlots(present, files.length);
  const accepted: F[] = [];
  const problems: string[] = [];
  for (const file of files.slice(0, take)) {
    const problem = imageProblem(file);
    if (problem) problems.push(`${file.name}: ${problem}`);
    else accepted.push(file);
  }
  return { accepted, messages: [...(message ? [message] : []), ...(problems.length > 0 ? [problems.join('；')] : [])] };
}

export const isUploading = (images: CommentImage[]) => images.some((image) => !image.uploaded);

/** Why the comment cannot be sent yet, or null: it needs text or an image, and no image still uploading. */
export function commentProblem(text: string, images: CommentImage[]): string | null {
  if (isUploading(images)) return '图片上传中，请稍候';
  if (!text.trim() && images.length === 0) return '请输入评论内容或上传图片';
  return null;
}

/**
 * What is sent as the comment's content: the typed text escaped (content is rich text on the server, and what was
 * typed must read back as typed) followed by the uploaded images as markup the server recognises.
 */
export function commentContent(text: string, images: CommentImage[]): string {
  const markup = images.filter((image) => image.url).map((image) => `<img src="${escapeHtml(image.url!)}" alt="评论图片">`);
  return escapeHtml(text.trim()) + markup.join('');
}
