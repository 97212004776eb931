import type { ServiceName } from '@shiliu/platform/core';

export type ServiceStatus = 'up' | 'down';

/** Asks each service whether it is ready: over HTTP in distributed mode, in process in embedded mode. */
export type ServiceProbe = () => Promise<Partial<Record<ServiceName, ServiceStatus>>>;

export function httpServiceProbe(baseUrls: Record<ServiceName, string>, timeoutMs = 2000): ServiceProbe {
  return async () => {
    const entries = await Promise.all(
      (Object.entries(baseUrls) as [ServiceName, string][]).map(async ([service, baseUrl]) => {
        try {
          const answer = await fetch(new URL('/health/ready', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
          return [service, answer.ok ? 'up' : 'down'] as const;
        } catch {
          return [service, 'down'] as const;
        }
      }),
    );
    return Object.fromEntries(entries);
  };
}
