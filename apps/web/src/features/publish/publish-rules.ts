/** Publish limits (public-side.md §5, §9). */
export const LIMITS = {
  title: 100,
  content: 2000,
  images: 9,
  imageBytes: 5 * 1024 * 1024,
  compressAbove: 0.8 * 1024 * 1024,
  compressSide: 1200,
  compressQuality: 0.4,
  tags: 10,
  tagLength: 8,
  suggestions: 10,
  videoBytes: 100 * 1024 * 1024,
  coverBytes: 5 * 1024 * 1024,
} as const;

export const IMAGE_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'];
export const VIDEO_EXTENSIONS = ['mp4', 'avi', 'mov', 'wmv', 'flv', 'webm'];

export type PublishMode = 'image' | 'video';

/** Why an image cannot be added, or null (the spec's messages). */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return '请选择图片文件';
  if (!IMAGE_TYPES.includes(file.type)) return '不支持的文件类型';
  if (file.size > LIMITS.imageBytes) return `图片大小为 ${(file.size / 1024 / 1024).toFixed(1)}MB，超过 5MB 限制，请选择更小的图片`;
  return null;
}

/** How many of `adding` images fit next to `present`, and the message when some do not. */
export function imageSlots(present: number, adding: number): { take: number; message: string | null } {
  const free = Math.max(0, LIMITS.images - present);
  if (adding <= free) return { take: adding, message: null };
  return { take: free, message: free === 0 ? `最多只能上传${LIMITS.images}张图片` : `最多只能再添加${free}张图片` };
}

/** Why a video cannot be chosen, or null. */
export function videoProblem(file: { type: string; size: number; name: string }): string | null {
  if (!file.type.startsWith('video/')) return '请选择视频文件';
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!VIDEO_EXTENSIONS.includes(extension)) return '不支持的视频格式';
  if (file.size > LIMITS.videoBytes) return '文件大小不能超过100MB';
  return null;
}

/** The size a compressed image is drawn at: the longer side at most 1200 px, never enlarged. */
export function compressedSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, LIMITS.compressSide / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** Whether a tag can be added: trimmed, non-empty, at most 8 characters, not chosen yet, under the limit of 10. */
export function tagState(tags: string[], input: string): { tag: string; ok: boolean; reason: 'empty' | 'duplicate' | 'full' | null } {
  const tag = input.trim().slice(0, LIMITS.tagLength);
  if (!tag) return { tag, ok: false, reason: 'empty' };
  if (tags.includes(tag)) return { tag, ok: false, reason: 'duplicate' };
  if (tags.length >= LIMITS.tags) return { tag, ok: false, reason: 'full' };
  return { tag, ok: true, reason: null };
}

/** Up to ten known tags containing the input (case aside), without the chosen ones. */
export function tagSuggestions(known: string[], chosen: string[], input: string): string[] {
  const needle = input.trim().toLowerCase();
  return known.filter((name) => !chosen.includes(name) && (!needle || name.toLowerCase().includes(needle))).slice(0, LIMITS.suggestions);
}

export interface PublishForm {
  mode: PublishMode;
  title: string;
  content: string;
  categoryId: number | null;
  images: number;
  video: boolean;
}

/** The first rule a publish (or a draft save) breaks, as the message to show, or null. */
export function publishProblem(form: PublishForm, draft: boolean): string | null {
  if (draft) {
    if (!form.title.trim() && !form.content.trim()) return '请输入标题或内容';
  } else {
    if (!form.title.trim()) return '请输入标题';
    if (!form.content.trim()) return '请输入内容';
    if (form.categoryId === null) return '请选择分类';
  }
  if (form.mode === 'image' && form.images === 0) return '请至少上传一张图片';
  if (form.mode === 'video' && !form.video) return '请选择视频文件';
  return null;
}

export type PublishStep = 'images' | 'video' | 'cover' | 'submit';

/**
 * The submit steps in the spec's order (public-side.md §4): images upload, then video upload, then the custom
 * cover upload, then submit; a step with nothing pending is skipped.
 */
export function publishSteps(pending: { images: number; video: boolean; cover: boolean }): PublishStep[] {
  const steps: PublishStep[] = [];
  if (pending.images > 0) steps.push('images');
  if (pending.video) steps.push('video');
  if (pending.cover) steps.push('cover');
  steps.push('submit');
  return steps;
}

/** The publish button's label for the step under way. */
export function stepLabel(step: PublishStep | null, idle: string): string {
  if (step === null) return idle;
  return step === 'submit' ? '提交中...' : '上传中...';
}

/** Plain text as the note's rich-text content: escaped, line breaks kept. */
export function textToContent(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char).replace(/\n/g, '<br>');
}

/** A note's rich-text content back to the plain text the editor shows. */
export function contentToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' })[entity] ?? entity);
}

/** Long-press on touch: hold this long without moving further than the threshold, then drag (public-side.md §9). */
export const LONG_PRESS = { ms: 300, slop: 10 } as const;

/** The list with the item `fromId` moved to where `toId` is; unchanged when either is missing or they are the same. */
export function moveItem<T extends { id: string }>(items: T[], fromId: string, toId: string): T[] {
  const from = items.findIndex((item) => item.id === fromId);
  const to = items.findIndex((item) => item.id === toId);
  if (from < 0 || to < 0 || from === to) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}
