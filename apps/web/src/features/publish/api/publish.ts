import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, ApiError, call, deadline, failingAs, MESSAGES, sendUpload, TIMEOUTS, UPLOAD_MESSAGES, type UploadedImage, uploadAnswer } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';
import { useSession } from '../../../lib/session';

/** Own notes and drafts are listed ten a page (public-side.md §9). */
const MANAGE_LIMIT = 10;

export type NoteBody = components['schemas']['PostFormDto'];

/** The publish feature's query keys. */
export const publishKeys = {
  tags: ['tags'] as const,
  bannedWords: ['banned-words'] as const,
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

/**
 * The banned-word list every service enforces, normalised (lower case, half-width, no spaces); the text-image dialog
 * checks with it, since its text becomes an image that no server can read.
 */
export function bannedWordsQuery() {
  return queryOptions({ queryKey: publishKeys.bannedWords, staleTime: 60_000, queryFn: async () => (await call(api.GET('/api/banned-words'))).words });
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

/** A draft (or an own note) to edit; its view is not counted. */
export function fetchDraft(id: number) {
  return failingAs(call(api.GET('/api/posts/{id}', { params: { path: { id }, query: { skipViewCount: true } } })), '获取笔记失败');
}

/** Creates a note, or updates the draft or note being edited. */
export function saveNote(draftId: number | null, body: NoteBody) {
  return draftId ? failingAs(call(api.PUT('/api/posts/{id}', { params: { path: { id: draftId } }, body })), '更新笔记失败') : failingAs(call(api.POST('/api/posts', { body })), '创建笔记失败');
}

export function deleteNote(id: number) {
  return failingAs(call(api.DELETE('/api/posts/{id}', { params: { path: { id } } })), '删除笔记失败');
}

/**
 * What a batch of images came to: per file in order its address or, for one the server refused, the reason; and the
 * message.
 */
export interface ImageBatch {
  urls: (string | null)[];
  reasons: (string | null)[];
  message: string;
  uploaded: number;
  failed: number;
}

/**
 * Uploads the images in one call, within the quick upload's 60 s. The server reports each refused file beside the
 * others, so a batch where some fail keeps the good ones; one where none succeed is an error.
 */
export async function uploadImages(files: File[]): Promise<ImageBatch> {
  if (files.length === 0) throw new ApiError(UPLOAD_MESSAGES.noFile, 0);
  const form = new FormData();
  for (const file of files) form.append('files', file);
  const answer = await sendUpload('/api/upload/multiple', form, TIMEOUTS.upload);
  const body = await uploadAnswer<{ uploaded: UploadedImage[]; errors: { file: string; reason: string }[] }>(answer);
  if (!answer.ok || !body.data) throw new ApiError(body.message || (answer.status >= 500 ? MESSAGES.server : UPLOAD_MESSAGES.failed), answer.status);
  const refused = [...body.data.errors];
  const uploaded = [...body.data.uploaded];
  // The answer lists refusals by file name and uploads in order; walk the files to give each its own outcome.
  const urls: (string | null)[] = [];
  const reasons: (string | null)[] = [];
  for (const file of files) {
    const at = refused.findIndex((error) => error.file === file.name);
    if (at < 0) {
      urls.push(uploaded.shift()?.url ?? null);
      reasons.push(null);
    } else {
      urls.push(null);
      reasons.push(refused.splice(at, 1)[0].reason);
    }
  }
  const done = urls.filter(Boolean).length;
  if (done === 0) throw new ApiError('上传失败，没有成功上传的图片', answer.status);
  const failed = files.length - done;
  const why = body.data.errors.map((error) => `${error.file}: ${error.reason}`).join('；');
  return { urls, reasons, uploaded: done, failed, message: failed === 0 ? '所有图片上传成功' : `${done}张图片上传成功，${failed}张上传失败${why ? `（${why}）` : ''}` };
}

/** Uploads the video's custom cover, within the quick upload's 60 s. */
export async function uploadCover(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const answer = await sendUpload('/api/upload/single', form, TIMEOUTS.upload).catch((error: unknown) => {
    throw error instanceof ApiError && error.message === UPLOAD_MESSAGES.timeout ? error : new ApiError('封面上传失败，请重试', 0);
  });
  const body = await uploadAnswer<{ url: string }>(answer);
  if (!answer.ok || !body.data) throw new ApiError('封面上传失败，请重试', answer.status);
  return body.data.url;
}

/**
 * Uploads a video (and its thumbnail) with the percent sent, through XHR since fetch reports no upload progress;
 * abandoned after 300 s on the page's own timer (so a test's clock can move it on).
 */
export function uploadVideo(file: File | null, thumbnail: Blob | null, onProgress: (percent: number) => void): Promise<{ url: string; coverUrl: string | null }> {
  return new Promise((resolve, reject) => {
    if (!file) {
      reject(new Error('没有视频文件'));
      return;
    }
    const form = new FormData();
    form.append('file', file);
    if (thumbnail) form.append('thumbnail', thumbnail, 'thumbnail.jpg');
    const request = new XMLHttpRequest();
    const limit = deadline(TIMEOUTS.video);
    limit.signal.addEventListener('abort', () => {
      request.abort();
      reject(new Error(UPLOAD_MESSAGES.timeout));
    });
    request.open('POST', '/api/upload/video');
    const token = useSession.getState().token;
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    request.onload = () => {
      limit.clear();
      let body: { data?: { url?: string; coverUrl: string | null }; message?: string };
      try {
        body = JSON.parse(request.responseText) as typeof body;
      } catch {
        reject(new Error(`${UPLOAD_MESSAGES.http} (${request.status})`));
        return;
      }
      if (request.status < 200 || request.status >= 300 || !body.data) reject(new Error(body.message ? `视频上传失败: ${body.message}` : '视频上传失败'));
      else if (!body.data.url) reject(new Error('视频数据异常，请重新上传'));
      else resolve({ url: body.data.url, coverUrl: body.data.coverUrl });
    };
    request.onerror = () => {
      limit.clear();
      reject(new Error('视频上传失败，请重试'));
    };
    request.send(form);
  });
}
