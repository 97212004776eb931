import createClient from 'openapi-fetch';
import { useSession } from '../session';
import { toast } from '../toast';
import { createAuthFetch, type Fetcher, type FetchOptions } from './auth-fetch';
import type { paths } from './schema';

export type * from './types';

/** The spec's global messages by status (public-side.md §8). */
export const MESSAGES = {
  expired: '会话已过期，已自动退出登录',
  network: '网络连接失败，请检查网络设置',
  forbidden: '禁止访问',
  missing: '资源不存在',
  server: '服务器内部错误',
} as const;

/** The spec's upload messages (public-side.md §8). */
export const UPLOAD_MESSAGES = {
  timeout: '上传超时，请检查网络连接或稍后重试',
  failed: '上传失败，请重试',
  http: 'HTTP错误',
  noFile: '请选择要上传的文件',
} as const;

/**
 * How long a call waits for an answer before it is abandoned (public-side.md §7, §9): every call, a quick image
 * upload, a video upload. A module-level setting, so that a unit test can shorten it.
 */
export const TIMEOUTS = { request: 60_000, upload: 60_000, video: 300_000 };

/** Whether a failed fetch was abandoned by one of the timeouts above. */
export function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TimeoutError';
}

/**
 * A signal that aborts with a TimeoutError after `ms`. It runs on the page's own setTimeout, so a browser test's clock
 * can move it on; `clear` stops it once the answer is in.
 */
export function deadline(ms: number): { signal: AbortSignal; clear(): void; abort(reason: unknown): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer), abort: (reason) => controller.abort(reason) };
}

/** fetch abandoned after the call's timeout (the request timeout unless it says otherwise), or when its caller aborts. */
export async function timedFetch(input: Request, { timeout = TIMEOUTS.request }: FetchOptions = {}): Promise<Response> {
  const limit = deadline(timeout);
  // The caller's abort is passed on by hand: AbortSignal.any is newer than the phones we serve (Safari before 17.4).
  const passOn = () => limit.abort(input.signal.reason);
  if (input.signal.aborted) passOn();
  else input.signal.addEventListener('abort', passOn, { once: true });
  try {
    return await fetch(input, { signal: limit.signal });
  } finally {
    limit.clear();
    input.signal.removeEventListener('abort', passOn);
  }
}

/** The fetch every call goes through: bearer token, one refresh and retry on a 401, the expired session. */
export const authFetch = createAuthFetch(
  {
    token: () => useSession.getState().token,
    refreshToken: () => useSession.getState().refreshToken,
    saveTokens: (tokens) => useSession.getState().setTokens(tokens),
    expired: () => {
      if (!useSession.getState().token) return;
      useSession.getState().signOut();
      toast.error(MESSAGES.expired);
      window.history.replaceState(null, '', '/explore');
      window.dispatchEvent(new PopStateEvent('popstate'));
    },
  },
  timedFetch,
);

/**
 * The one API client: its paths, parameters and answers are typed by the generated schema, so a field renamed
 * on the server fails this app's typecheck.
 */
export const api = createClient<paths>({ baseUrl: '/', fetch: authFetch });

/** A failed call, with the message to show and its status (0 when nothing answered). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function messageFor(status: number, serverMessage: string | undefined): string {
  if (status === 403) return MESSAGES.forbidden;
  if (status === 404) return serverMessage || MESSAGES.missing;
  if (status >= 500) return MESSAGES.server;
  return serverMessage || `请求失败 (${status})`;
}

/** Unwraps the envelope `{code, message, data}` of a typed call: its data, or an ApiError with the spec's message. */
export async function call<T>(request: Promise<{ data?: { data?: T; code: number }; error?: unknown; response: Response }>): Promise<T> {
  let answer: Awaited<typeof request>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(MESSAGES.network, 0);
  }
  if (answer.data !== undefined && answer.response.ok) return answer.data.data as T;
  const serverMessage = (answer.error as { message?: string } | undefined)?.message;
  throw new ApiError(messageFor(answer.response.status, serverMessage), answer.response.status);
}

/**
 * Posts a multipart form to an upload path (through the console's fetch for the console), abandoned after `timeout`
 * ms with the upload timeout's message; nothing answering is the network message.
 */
export async function sendUpload(path: string, form: FormData, timeout: number, through: Fetcher = authFetch): Promise<Response> {
  try {
    return await through(new Request(new URL(path, location.origin), { method: 'POST', body: form }), { timeout });
  } catch (error) {
    throw new ApiError(isTimeout(error) ? UPLOAD_MESSAGES.timeout : MESSAGES.network, 0);
  }
}

/**
 * The envelope's message of a failed upload: the server's own, else the status's; an answer that is not the
 * envelope at all (a proxy's error page) is 'HTTP错误' with its status.
 */
export async function uploadAnswer<T>(answer: Response): Promise<{ data?: T; message?: string }> {
  const body = (await answer.json().catch(() => null)) as { data?: T; message?: string } | null;
  if (body === null && !answer.ok) throw new ApiError(`${UPLOAD_MESSAGES.http} (${answer.status})`, answer.status);
  return body ?? {};
}

/** Whether a failed call got no answer or a server error: the call could not be made, not refused. */
export function unreachable(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

/**
 * A call whose server error is told as the operation's own message (创建笔记失败, 获取笔记失败, ...: public-side.md §8);
 * nothing answering, a refusal in the server's words and a missing resource keep their messages, which say more.
 */
export async function failingAs<T>(request: Promise<T>, message: string): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) throw error;
    throw new ApiError(message, error instanceof ApiError ? error.status : 0);
  }
}

/** A quick upload (an avatar, a comment's image) through the media service, abandoned after 60 s (§9). */
export async function upload<T>(path: '/api/upload/image' | '/api/upload/single', form: FormData): Promise<T> {
  if ([...form.values()].every((value) => typeof value === 'string')) throw new ApiError(UPLOAD_MESSAGES.noFile, 0);
  const answer = await sendUpload(path, form, TIMEOUTS.upload);
  const body = await uploadAnswer<T>(answer);
  if (answer.ok) {
    if (body.data === undefined) throw new ApiError(UPLOAD_MESSAGES.failed, answer.status);
    return body.data;
  }
  throw new ApiError(body.message ? `上传失败: ${body.message}` : messageFor(answer.status, undefined), answer.status);
}

export const DEFAULT_AVATAR = '/default-avatar.svg';
export const NOTE_PLACEHOLDER = '/placeholder.svg';
