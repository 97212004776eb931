import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './tools';

/** Metrics that come from outside the services' own code: kube-state-metrics, and prom-client's process metrics. */
export const external = new Set(['kube_pod_container_status_restarts_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds']);

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every metric name the services register: each is a literal `'shiliu_…'` in libs/platform/src/metrics. */
export function exportedMetrics(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(join(root, 'libs', 'platform', 'src', 'metrics'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/'(shiliu_[a-z0-9_]+)'/g)) names.add(match[1]);
  }
  return names;
}

/** The metric names a PromQL expression reads, histogram series folded onto their metric. */
export function metricsIn(expression: string): string[] {
  return [...expression.matchAll(/\b((?:shiliu|kube|process|nodejs)_[a-z0-9_]+)/g)].map((match) => match[1].replace(/_(bucket|count|sum)$/, ''));
}
