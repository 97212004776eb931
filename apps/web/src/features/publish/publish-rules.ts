import { IMAGE_LIMITS } from '../../lib/images';

/** Publish limits (public-side.md §5, §9). */
export const LIMITS = {
  title: 100,
  content: 2000,
  ...IMAGE_LIMITS,
  tags: 10,
  tagLength: 8,
  suggestions: 10,
  videoBytes: 100 * 1024 * 1024,
  coverBytes: 5 * 1024 * 1024,
} as const;

export const VIDEO_EXTENSIONS = ['mp4', 'avi', 'mov', 'wmv', 'flv', 'webm'];

export type PublishMode = 'image' | 'video';

/** Why a video cannot be chosen, or null. */
export function videoProblem(file: { type: string; size: number; name: string }): string | null {
  if (!file.type.startsWith('video/')) return '请选择视频文件';
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!VIDEO_EXTENSIONS.includes(extension)) return '不支持的视频格式';
  if (file.size > LIMITS.videoBytes) return '文件大小不能超过100MB';
  return null;
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
  /** An already published note is being edited. */
  published?: boolean;
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
    if (form.published && (!form.title.trim() || !form.content.trim())) return '请填写完整信息';
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

/** The publish button's label at rest; under way it reads 上传中... then 提交中... (public-side.md §4). */
export const PUBLISH_IDLE_LABEL = '上传';

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
