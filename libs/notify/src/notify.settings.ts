import { loadConfig } from '@shiliu/platform';
import { z } from 'zod';

export const NOTIFY_SETTINGS = Symbol('NOTIFY_SETTINGS');

const notifySettings = {
  /** How often an idle unread stream sends a comment line, so that proxies and load balancers keep it open. */
  NOTIFY_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
};

export type NotifySettings = ReturnType<typeof loadNotifySettings>;

export function loadNotifySettings(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(notifySettings, env);
}
