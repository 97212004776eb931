import createClient from 'openapi-fetch';
import { createAuthFetch } from '../lib/api/auth-fetch';
import { ApiError, MESSAGES, sendUpload, TIMEOUTS, timedFetch, uploadAnswer } from '../lib/api/client';
import type { paths } from '../lib/api/schema';
import { toast } from '../lib/toast';
import { useAdminSession } from './session';

/** The console's messages (admin-and-startup.md §8). */
export const ADMIN_MESSAGES = {
  ...MESSAGES,
  unauthorized: '未授权访问',
  loginExpired: '登录已过期，请重新登录',
} as const;

/** Where the console goes when the administrator's session ends; the router listens to popstate. */
export function goToLogin(): void {
  window.history.replaceState(null, '', '/admin/login');
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * Every console call carries the administrator's token (§6), refreshes it once at the admin refresh path, and on a
 * failed refresh clears the administrator's data and goes to /admin/login (§4, §8).
 */
export const adminFetch = createAuthFetch(
  {
    token: () => useAdminSession.getState().token,
    refreshToken: () => useAdminSession.getState().refreshToken,
    saveTokens: (tokens) => useAdminSession.getState().setTokens(tokens),
    expired: () => {
      if (!useAdminSession.getState().token) return;
      useAdminSession.getState().signOut();
      toast.error(ADMIN_MESSAGES.expired);
      goToLogin();
    },
  },
  timedFetch,
  '/api/auth/admin/refresh',
);

/** The typed client for the console's calls that the generated document already describes. */
export const adminApi = createClient<paths>({ baseUrl: '/', fetch: adminFetch });

function messageFor(status: number, serverMessage: string | undefined): string {
  if (status === 401) return serverMessage || ADMIN_MESSAGES.unauthorized;
  if (status === 403) return ADMIN_MESSAGES.forbidden;
  if (status === 404) return serverMessage || ADMIN_MESSAGES.missing;
  if (status >= 500) return ADMIN_MESSAGES.server;
  return serverMessage || `请求失败 (${status})`;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

/**
 * One console call by path (the management calls of §7 are shared by twelve entities, so they go by path rather than
 * through twelve typed signatures): the envelope's data, or an ApiError carrying the server's message.
 */
export async function adminCall<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  let answer: Response;
  try {
    answer = await adminFetch(new Request(url, { method, headers: options.body === undefined ? undefined : { 'Content-Type': 'application/json' }, body: options.body === undefined ? undefined : JSON.stringify(options.body) }));
  } catch {
    throw new ApiError(ADMIN_MESSAGES.network, 0);
  }
  const body = (await answer.json().catch(() => ({}))) as { data?: T; message?: string };
  if (!answer.ok) throw new ApiError(messageFor(answer.status, body.message), answer.status);
  return body.data as T;
}

/** Unwraps a typed call's envelope like adminCall. */
export async function adminTyped<T>(request: Promise<{ data?: { data?: T }; error?: unknown; response: Response }>): Promise<T> {
  let answer: Awaited<typeof request>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(ADMIN_MESSAGES.network, 0);
  }
  if (answer.data !== undefined && answer.response.ok) return answer.data.data as T;
  throw new ApiError(messageFor(answer.response.status, (answer.error as { message?: string } | undefined)?.message), answer.response.status);
}

/** What the media service answers for an upload the console needs: the stored file's address (a video's cover too). */
export interface AdminUploaded {
  url: string;
  coverUrl?: string | null;
}

/**
 * Uploads one file through the students' upload calls with the administrator's token (the media service takes both):
 * an image to /api/upload/single within the quick upload's 60 s, a video to /api/upload/video within 300 s.
 */
export async function adminUpload(kind: 'image' | 'video', file: File): Promise<AdminUploaded> {
  const form = new FormData();
  form.append('file', file);
  const answer = await sendUpload(kind === 'image' ? '/api/upload/single' : '/api/upload/video', form, kind === 'image' ? TIMEOUTS.upload : TIMEOUTS.video, adminFetch);
  const body = await uploadAnswer<AdminUploaded>(answer);
  if (!answer.ok || !body.data) throw new ApiError(messageFor(answer.status, body.message), answer.status);
  return body.data;
}

