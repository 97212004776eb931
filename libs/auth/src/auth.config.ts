import { loadConfig } from '@shiliu/platform';
import { z } from 'zod';

/** Settings only the auth service reads, validated when its module starts. */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
      /** The first administrator's password; generated and printed once when absent. */
      ADMIN_PASSWORD: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(6).max(100).optional()),
      /** For automated tests only: every captcha's answer becomes this text. */
      AUTH_CAPTCHA_TEST_ANSWER: z.string().min(1).max(10).optional(),
    },
    env,
  );
  if (config.AUTH_CAPTCHA_TEST_ANSWER && config.NODE_ENV === 'production') {
    throw new Error('AUTH_CAPTCHA_TEST_ANSWER must not be set when NODE_ENV=production');
  }
  return config;
}

export type AuthConfig = ReturnType<typeof loadAuthConfig>;
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
