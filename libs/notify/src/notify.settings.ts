import { loadConfig } from '@shiliu/platform';
import { z } from 'zod';

export const NOTIFY_SETTINGS = Symbol('NOTIFY_SETTINGS');

const notifySettings = {
  /** How often an idle unread stream sends a comment line, so that proxies and load balancers keep it open. */
  NOTIFY_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** How long a ticket to open an unread stream stays good (it is good for one stream only). */
  NOTIFY_STREAM_TICKET_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
  /** How often an open unread stream looks whether its session has been revoked (a look-up in memory). */
  NOTIFY_STREAM_REVOCATION_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
};

export type NotifySettings = ReturnType<typeof loadNotifySettings>;

export function loadNotifySettings(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(notifySettings, env);
}
