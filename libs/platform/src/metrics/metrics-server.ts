import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from './metrics';

/**
 * Prometheus metrics on their own management port (METRICS_PORT: 9100 for the gateway and the embedded process,
 * 9101-9106 for auth … media), never on the public one, where anyone could read them. Only GET /metrics is answered,
 * and GET /healthz when `live` is given (a process without an HTTP server of its own, such as the media worker: 200
 * while `live()` holds, 503 when not).
 */
export async function startMetricsServer(
  port: number,
  host = '0.0.0.0',
  live?: () => boolean,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (live && req.method === 'GET' && path === '/healthz') {
      const ok = live();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'live\n' : 'stale\n');
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
