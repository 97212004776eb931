import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportedMetrics, external, metricsIn } from './metrics';
import { root } from './tools';

interface Dashboard {
  uid: string;
  title: string;
  panels: { title: string; targets: { expr: string }[] }[];
}

const directory = join(root, 'ops', 'grafana');
const dashboards = readdirSync(directory)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, dashboard: JSON.parse(readFileSync(join(directory, name), 'utf8')) as Dashboard }));

/** The Grafana dashboards in ops/grafana import as they are and plot only metrics that exist. */
describe('Grafana dashboards (ops/grafana)', () => {
  it('are the service overview, the events pipeline and the media jobs, each with a unique uid', () => {
    expect(dashboards.map(({ name }) => name).sort()).toEqual(['events-pipeline.json', 'media-jobs.json', 'service-overview.json']);
    expect(new Set(dashboards.map(({ dashboard }) => dashboard.uid)).size).toBe(dashboards.length);
  });

  it('query only metrics the services export', () => {
    const exported = exportedMetrics();
    const unknown = dashboards.flatMap(({ name, dashboard }) =>
      dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap((target) => metricsIn(target.expr).filter((metric) => !exported.has(metric) && !external.has(metric)).map((metric) => `${name} / ${panel.title}: ${metric}`)),
      ),
    );
    expect(unknown).toEqual([]);
    expect(dashboards.every(({ dashboard }) => dashboard.panels.length > 0 && dashboard.panels.every((panel) => panel.targets.length > 0))).toBe(true);
  });
});
