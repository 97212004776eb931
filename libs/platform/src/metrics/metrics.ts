import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * One registry per process: in embedded mode every service module shares it and is told apart
 * by the `service` label; in distributed mode each process exposes its own.
 */
collectDefaultMetrics({ register });

export const metricsRegistry = register;

const httpDuration = new Histogram({
  name: 'shiliu_http_request_duration_seconds',
  help: 'HTTP request duration by service, method, route and status',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

export const eventsHandled = new Counter({
  name: 'shiliu_events_handled_total',
  help: 'Events handled by consumer service, type and outcome',
  labelNames: ['service', 'type', 'outcome'] as const,
});

export const outboxPublished = new Counter({
  name: 'shiliu_outbox_published_total',
  help: 'Outbox records published by producing service and transport',
  labelNames: ['service', 'transport'] as const,
});

export const outboxFailed = new Counter({
  name: 'shiliu_outbox_failed_total',
  help: 'Outbox records the transport refused for good, set aside until replayed, by producing service',
  labelNames: ['service', 'transport'] as const,
});

export const deadLettered = new Counter({
  name: 'shiliu_dead_letters_total',
  help: 'Messages parked as dead letters by consumer service and reason',
  labelNames: ['service', 'reason'] as const,
});

export const eventRetries = new Counter({
  name: 'shiliu_event_retries_total',
  help: 'Handler attempts that failed and were retried, by consumer service, type and failure kind (transient or permanent)',
  labelNames: ['service', 'type', 'failure'] as const,
});

export interface OutboxBacklog {
  service: string;
  unsent: number;
  oldestSeconds: number;
}

/** Each running outbox relay, asked at scrape time so the figures are current even when the relay is stuck. */
export const outboxBacklogSources = new Set<() => Promise<OutboxBacklog>>();

async function backlogs(): Promise<OutboxBacklog[]> {
  const answers = await Promise.allSettled([...outboxBacklogSources].map((source) => source()));
  return answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
}

new Gauge({
  name: 'shiliu_outbox_backlog',
  help: 'Outbox records not yet published, by producing service',
  labelNames: ['service'] as const,
  async collect() {
    this.reset();
    for (const backlog of await backlogs()) this.set({ service: backlog.service }, backlog.unsent);
  },
});

new Gauge({
  name: 'shiliu_outbox_oldest_unsent_seconds',
  help: 'Age of the oldest outbox record not yet published (0 when none), by producing service',
  labelNames: ['service'] as const,
  async collect() {
    this.reset();
    for (const backlog of await backlogs()) this.set({ service: backlog.service }, backlog.oldestSeconds);
  },
});

/** How far a service's consumer group is behind the end of one topic (messages), summed over its partitions. */
export interface ConsumerLag {
  service: string;
  topic: string;
  lag: number;
}

/** Each running Kafka consumer, asked at scrape time (the broker's end offsets against the group's committed ones). */
export const consumerLagSources = new Set<() => Promise<ConsumerLag[]>>();

new Gauge({
  name: 'shiliu_consumer_lag',
  help: 'Messages on a topic not yet consumed by a service, by consumer service and topic',
  labelNames: ['service', 'topic'] as const,
  async collect() {
    this.reset();
    const answers = await Promise.allSettled([...consumerLagSources].map((source) => source()));
    for (const answer of answers) {
      if (answer.status === 'fulfilled') for (const each of answer.value) this.set({ service: each.service, topic: each.topic }, each.lag);
    }
  },
});

/** Times each request; the route label is the matched route pattern, never the raw path, to keep cardinality low. */
export function httpMetricsMiddleware(service: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = httpDuration.startTimer({ service, method: req.method });
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ route: String(route), status: String(res.statusCode) });
    });
    next();
  };
}
