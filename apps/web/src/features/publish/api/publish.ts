import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, ApiError, authFetch, call, type UploadedImage } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';
import { useSession } from '../../../lib/session';

/** Own notes and drafts are listed ten a page (public-side.md §9). */
const MANAGE_LIMIT = 10;

export type NoteBody = components['schemas']['PostFormDto'];

/** The publish feature's query keys. */
export const publishKeys = {
  tags: ['tags'] as const,
  manage: ['manage'] as const,
  manageList: (filter: ManageFilter) => ['manage', filter.drafts, filter.userId, filter.keyword, filter.categoryId, filter.page] as const,
};

export interface ManageFilter {
  drafts: boolean;
  userId: string | undefined;
  keyword: string;
  categoryId: number | null;
  page: number;
}

/** The known tags, for suggestions while typing one. */
export function tagsQuery() {
  return queryOptions({ queryKey: publishKeys.tags, staleTime: 5 * 60_000, queryFn: () => call(api.GET('/api/tags', { params: { query: { limit: 100 } } })) });
}

/** One page of the creator's own notes or drafts; the previous page stays shown while the next loads. */
export function manageListQuery(filter: ManageFilter) {
  const { drafts, userId, keyword, categoryId, page } = filter;
  return queryOptions({
    queryKey: publishKeys.manageList(filter),
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/posts', {
          params: { query: { user_id: userId, is_draft: drafts, page, limit: MANAGE_LIMIT, sort: 'created_at', ...(keyword ? { keyword } : {}), ...(categoryId ? { category_id: categoryId } : {}) } },
        }),
      ),
  });
}

/** A draft to edit (its view is not counted). */
export function fetchDraft(id: number) {
  return call(api.GET('/api/posts/{id}', { params: { path: { id }, query: { skipViewCount: true } } }));
}

/** Creates a note, or updates the draft being edited. */
export function saveNote(draftId: number | null, body: NoteBody) {
  return draftId ? call(api.PUT('/api/posts/{id}', { params: { path: { id: draftId } }, body })) : call(api.POST('/api/posts', { body }));
}

export function deleteNote(id: number) {
  return call(api.DELETE('/api/posts/{id}', { params: { path: { id } } }));
}

export async function uploadImages(files: File[]): Promise<string[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file);
  let answer: Response;
  try {
    answer = await authFetch(new Request(new URL('/api/upload/multiple', location.origin), { method: 'POST', body: form }));
  } catch {
    throw new ApiError('网络连接失败，请检查网络设置', 0);
  }
  const body = (await answer.json().catch(() => ({}))) as { data?: { uploaded: UploadedImage[]; errors: { file: string; reason: string }[] }; message?: string };
  if (!answer.ok || !body.data) throw new ApiError(body.message || '图片上传失败', answer.status);
  if (body.data.errors.length > 0 || body.data.uploaded.length !== files.length) throw new ApiError(body.data.errors.map((error) => `${error.file}: ${error.reason}`).join('；') || '图片上传失败', 400);
  return body.data.uploaded.map((image) => image.url);
}

export async function uploadCover(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  let answer: Response;
  try {
    answer = await authFetch(new Request(new URL('/api/upload/single', location.origin), { method: 'POST', body: form }));
  } catch {
    throw new ApiError('封面上传失败，请重试', 0);
  }
  const body = (await answer.json().catch(() => ({}))) as { data?: { url: string } };
  if (!answer.ok || !body.data) throw new ApiError('封面上传失败，请重试', answer.status);
  return body.data.url;
}

/** Uploads a video (and its thumbnail) with the percent sent, through XHR since fetch reports no upload progress. */
export function uploadVideo(file: File, thumbnail: Blob | null, onProgress: (percent: number) => void): Promise<{ url: string; coverUrl: string | null }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('file', file);
    if (thumbnail) form.append('thumbnail', thumbnail, 'thumbnail.jpg');
    const request = new XMLHttpRequest();
    request.open('POST', '/api/upload/video');
    request.timeout = 300_000;
    const token = useSession.getState().token;
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    request.onload = () => {
      try {
        const body = JSON.parse(request.responseText) as { data?: { url: string; coverUrl: string | null }; message?: string };
        if (request.status >= 200 && request.status < 300 && body.data) resolve(body.data);
        else reject(new Error(body.message || '视频上传失败'));
      } catch {
        reject(new Error('视频上传失败'));
      }
    };
    request.onerror = () => reject(new Error('视频上传失败，请重试'));
    request.ontimeout = () => reject(new Error('上传超时，请检查网络连接或稍后重试'));
    request.send(form);
  });
}
