import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Reads the settings a process needs from the environment, once, at start-up.
 * A missing or malformed setting throws a ConfigError that names every bad variable,
 * so the process stops before it serves anything.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return result.data;
}

/** Settings shared by every service process. */
export const commonSettings = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const url = () => z.string().url();
export const csv = () =>
  z
    .string()
    .min(1)
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean));
