import type { NextFunction, Request, Response } from 'express';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

export const lateAnswersDropped = new Counter({
  name: 'shiliu_http_late_answers_dropped_total',
  help: 'Answers dropped because their call had already been answered (the gateway timed it out) or its connection closed, by service',
  labelNames: ['service'] as const,
});

export const eventsHandled = new Counter({
  name: 'shiliu_events_handled_total',
  help: 'Events handled by consumer service, type and outcome',
  labelNames: ['service', 'type', 'outcome'] as const,
});

export const backfillAnnounced = new Counter({
  name: 'shiliu_backfill_announced_total',
  help: 'Rows re-announced for a read model that asked for them, by owning service and entity',
  labelNames: ['service', 'entity'] as const,
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

/** Times each request; the route label is the matched route pattern, never the raw path, to keep cardinality low. */
export function httpMetricsMiddleware(service: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = timeHttpCall(service, req.method);
    res.on('finish', () => stop(String((req.route as { path?: string } | undefined)?.path ?? 'unmatched'), res.statusCode));
    next();
  };
}

/** A service's calls timed the same way: the route label is Fastify's route pattern, in the same form as express's. */
export function installHttpMetrics(fastify: FastifyInstance, service: string): void {
  const timers = new WeakMap<FastifyRequest, (route: string, status: number) => void>();
  fastify.addHook('onRequest', (request, _reply, done) => {
    timers.set(request, timeHttpCall(service, request.method));
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    timers.get(request)?.(request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'), reply.statusCode);
    done();
  });
}

/** Times one call from now; the function returned records it under its route's pattern and its status. */
export function timeHttpCall(service: string, method: string): (route: string, status: number) => void {
  const stop = httpDuration.startTimer({ service, method });
  return (route, status) => stop({ route, status: String(status) });
}

/** Calls the gateway gave up on: the service refused or broke the connection (502), or did not answer in time (504). */
export const gatewayUpstreamErrors = new Counter({
  name: 'shiliu_gateway_upstream_errors_total',
  help: 'Calls the gateway could not complete with a service, by service and kind (unreachable: 502, timeout: 504)',
  labelNames: ['service', 'kind'] as const,
});

/** Scrape-time figures from the running parts of a process (consumers, queues, pools), each source a closure. */
async function gather<T>(sources: Set<() => Promise<T[]>>): Promise<T[]> {
  const answers = await Promise.allSettled([...sources].map((source) => source()));
  return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
}

export interface ConsumerLag {
  service: string;
  group: string;
  topic: string;
  lag: number;
}

/** Each running Kafka consumer, asked at scrape time for its group's lag. */
export const consumerLagSources = new Set<() => Promise<ConsumerLag[]>>();

new Gauge({
  name: 'shiliu_kafka_consumer_lag',
  help: "Messages of a topic its consumer group has not yet handled (latest offset minus the group's committed one, summed over partitions)",
  labelNames: ['service', 'group', 'topic'] as const,
  async collect() {
    this.reset();
    for (const { service, group, topic, lag } of await gather(consumerLagSources)) this.set({ service, group, topic }, lag);
  },
});

export interface QueueDepth {
  queue: string;
  state: string;
  jobs: number;
}

/** Each BullMQ queue a process produces to, asked at scrape time for its job counts. */
export const queueDepthSources = new Set<() => Promise<QueueDepth[]>>();

new Gauge({
  name: 'shiliu_queue_jobs',
  help: 'Jobs in a BullMQ queue by state (waiting, delayed, active, failed)',
  labelNames: ['queue', 'state'] as const,
  async collect() {
    this.reset();
    for (const { queue, state, jobs } of await gather(queueDepthSources)) this.set({ queue, state }, jobs);
  },
});

export const queueJobDuration = new Histogram({
  name: 'shiliu_queue_job_duration_seconds',
  help: 'Time of one job attempt in a worker, by queue, job name and outcome (completed, failed)',
  labelNames: ['queue', 'job', 'outcome'] as const,
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
});

export const queueJobsFailed = new Counter({
  name: 'shiliu_queue_jobs_failed_total',
  help: 'Jobs that failed for good (every attempt used), by queue and job name',
  labelNames: ['queue', 'job'] as const,
});

export interface PoolUse {
  service: string;
  total: number;
  idle: number;
  waiting: number;
}

/** Each open database pool, asked at scrape time. */
export const poolUseSources = new Set<() => Promise<PoolUse[]>>();

function poolGauge(name: string, help: string, field: 'total' | 'idle' | 'waiting'): void {
  new Gauge({
    name,
    help,
    labelNames: ['service'] as const,
    async collect() {
      this.reset();
      for (const use of await gather(poolUseSources)) this.inc({ service: use.service }, use[field]);
    },
  });
}

poolGauge('shiliu_db_pool_total', 'Connections open in the database pool, by service', 'total');
poolGauge('shiliu_db_pool_idle', 'Connections of the database pool not in use, by service', 'idle');
poolGauge('shiliu_db_pool_waiting', 'Queries waiting for a free database pool connection, by service', 'waiting');
