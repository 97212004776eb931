import { loadConfig } from '@shiliu/platform';
import { z } from 'zod';

const limit = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Settings only the auth service reads, validated when its module starts. */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
      /** The first administrator's password; generated and printed once when absent. */
      ADMIN_PASSWORD: z.preprocess((value) => (value === '' ? undefined : value), z.string().min(6).max(100).optional()),
      /**
       * Limits, sized for a campus where thousands of students share one NAT address on the first day of term:
       * per address they only stop floods, and the captcha is the main defence against guessing and bulk sign-up.
       */
      /** Sign-in attempts per address per minute, right or wrong. */
      AUTH_LOGIN_PER_IP_PER_MINUTE: limit(600),
      /** Wrong passwords for one account from one address in 15 minutes before that address must wait (429). */
      AUTH_LOGIN_FAILURES_PER_ACCOUNT_AND_IP: limit(10),
      /** Wrong passwords for one account from anywhere in 15 minutes before every sign-in to it needs a captcha. */
      AUTH_LOGIN_FAILURES_BEFORE_CAPTCHA: limit(5),
      /** Registrations per address per hour. */
      AUTH_REGISTER_PER_IP_PER_HOUR: limit(2000),
      /** Captchas per address per minute. */
      AUTH_CAPTCHA_PER_IP_PER_MINUTE: limit(1200),
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
