import { JSON_BODY_LIMIT_BYTES } from '@shiliu/platform/core';
import type { RouteEntry } from './route-table';

/** Request timeout and body size per kind of call (public-side.md §9: 60 s requests, 300 s and 100 MB for video). */
export interface RouteLimits {
  /** 0 for none: a stream lasts as long as its client keeps it open. */
  timeoutMs: number;
  maxBodyBytes: number;
}

const MB = 1024 * 1024;

export type RouteLimitTable = Record<NonNullable<RouteEntry['kind']> | 'default', RouteLimits>;

export const routeLimits: RouteLimitTable = {
  // The services' own limit, so a body is refused at the same size whichever mode or hop counts it.
  default: { timeoutMs: 60_000, maxBodyBytes: JSON_BODY_LIMIT_BYTES },
  upload: { timeoutMs: 60_000, maxBodyBytes: 9 * 10 * MB + MB },
  video: { timeoutMs: 300_000, maxBodyBytes: 100 * MB + MB },
  stream: { timeoutMs: 0, maxBodyBytes: JSON_BODY_LIMIT_BYTES },
};

export function limitsOf(entry: RouteEntry, table: RouteLimitTable = routeLimits): RouteLimits {
  return table[entry.kind ?? 'default'];
}
