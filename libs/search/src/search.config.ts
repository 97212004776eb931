import { ConfigError, loadConfig } from '@shiliu/platform';
import { z } from 'zod';

/**
 * Settings only the search service reads, validated when its module starts. PostgreSQL answers in embedded mode;
 * a distributed deployment sets `SEARCH_ENGINE=elasticsearch` and the cluster's address.
 */
export function loadSearchConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      SEARCH_ENGINE: z.enum(['postgres', 'elasticsearch']).default('postgres'),
      ELASTICSEARCH_URL: z.string().url().optional(),
      /** Put before every index and alias name, so installations (and test runs) can share one cluster. */
      SEARCH_INDEX_PREFIX: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).default('shiliu'),
      /**
       * The analyzer of Chinese text. `standard` (one token per Han character, matched as phrases) works on any
       * build; a cluster with analysis-common, smartcn or ik names `cjk`, `smartcn` or `ik_max_word` here.
       */
      SEARCH_ANALYZER: z.string().regex(/^[a-z_]+$/).default('standard'),
      /** Make every write searchable before it returns (tests); otherwise within the index's refresh interval. */
      SEARCH_REFRESH_ON_WRITE: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
      /**
       * How long Elasticsearch's answer to one question is kept and shared while no note or user changed what it
       * is found by (CachedSearchEngine); 0 keeps none. Only without SEARCH_REFRESH_ON_WRITE: whoever asks for every
       * write to be searchable at once wants no delay either.
       */
      SEARCH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
    },
    env,
  );
  if (config.SEARCH_ENGINE === 'elasticsearch' && !config.ELASTICSEARCH_URL) {
    throw new ConfigError(['ELASTICSEARCH_URL: required when SEARCH_ENGINE=elasticsearch']);
  }
  return config;
}

export type SearchConfig = ReturnType<typeof loadSearchConfig>;
export const SEARCH_CONFIG = Symbol('SEARCH_CONFIG');
