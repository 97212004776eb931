import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { exportedMetrics, external, metricsIn } from './metrics';
import { execute, root, tool } from './tools';

const rulesFile = join(root, 'ops', 'prometheus', 'alerts.yml');

interface Rule {
  alert: string;
  expr: string;
  annotations?: Record<string, string>;
}

describe('Prometheus alert rules (ops/prometheus/alerts.yml)', () => {
  const rules: Rule[] = (parse(readFileSync(rulesFile, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);

  it('pass promtool check rules', () => {
    const check = execute(tool('bin/promtool'), ['check', 'rules', rulesFile]);
    expect(check.output).toContain('SUCCESS');
    expect(check.status).toBe(0);
  });

  it('cover error rate, p99 latency, outbox age, consumer lag, dead letters, job failures and pod restarts', () => {
    const read = rules.flatMap((rule) => metricsIn(rule.expr));
    for (const metric of [
      'shiliu_http_request_duration_seconds',
      'shiliu_outbox_oldest_unsent_seconds',
      'shiliu_kafka_consumer_lag',
      'shiliu_dead_letters_total',
      'shiliu_queue_jobs_failed_total',
      'kube_pod_container_status_restarts_total',
    ]) expect(read).toContain(metric);
  });

  it('read only metrics the services export', () => {
    const exported = exportedMetrics();
    const unknown = rules.flatMap((rule) => metricsIn(rule.expr).filter((metric) => !exported.has(metric) && !external.has(metric)).map((metric) => `${rule.alert}: ${metric}`));
    expect(unknown).toEqual([]);
  });

  it('link each alert to its runbook, which says what it means, how to confirm it and what to do', () => {
    for (const rule of rules) {
      const url = rule.annotations?.runbook_url ?? '';
      expect({ alert: rule.alert, url: url.endsWith(`/docs/runbooks/${rule.alert}.md`) }).toEqual({ alert: rule.alert, url: true });
      const runbook = join(root, 'docs', 'runbooks', `${rule.alert}.md`);
      expect({ runbook: relative(root, runbook), exists: existsSync(runbook) }).toEqual({ runbook: relative(root, runbook), exists: true });
      const text = readFileSync(runbook, 'utf8');
      for (const heading of ['## What it means', '## How to confirm', '## What to do']) expect({ runbook: rule.alert, heading, present: text.includes(heading) }).toEqual({ runbook: rule.alert, heading, present: true });
    }
  });
});
