import type { components } from './api/schema';

type FirstFeed = { code: number; data?: components['schemas']['PostPage'] } | null;

declare global {
  interface Window {
    /** The first page of 推荐 that /boot.js asked for before the app ran (public/boot.js). */
    __firstFeed?: Promise<FirstFeed>;
  }
}

/**
 * The first page of 推荐 asked for by /boot.js, given to its first caller only (a later load is a refresh and
 * asks again); null when the script did not ask (a session, another page), its answer was not a page of notes, or
 * its page size is not the caller's (boot.js names its own, and a stale copy of it may be cached).
 */
export async function takeFirstFeed(limit: number): Promise<components['schemas']['PostPage'] | null> {
  const early = window.__firstFeed;
  if (!early) return null;
  delete window.__firstFeed;
  const body = await early;
  return body?.code === 200 && body.data?.pagination.limit === limit ? body.data : null;
}
