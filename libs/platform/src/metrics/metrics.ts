import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, register } from 'prom-client';

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
