import { connect, type Socket } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createGatewayApp, RateLimiter, type GatewayOptions, mergeOpenApi } from '@shiliu/gateway';
import { createLogger, MemoryRevocationList, type ServiceName, serviceNames } from '@shiliu/platform';
import { webFixture } from './web-fixture';

/**
 * A gateway for a spec, listening on a free loopback port: the spec's upstream and whatever else it sets, the rest
 * as quiet as can be (a silent log, a generous rate limit, its own revocation list, a stand-in web app, no other
 * origins, no services reported, an empty API document).
 */
export async function testGateway(options: Pick<GatewayOptions, 'mode' | 'upstream'> & Partial<GatewayOptions>): Promise<NestExpressApplication> {
  const gateway = await createGatewayApp({
    rateLimiter: new RateLimiter({ points: 1000, windowSeconds: 60 }),
    revocations: new MemoryRevocationList(),
    logger: createLogger('test', 'silent'),
    webDir: webFixture(),
    corsOrigins: [],
    trustProxy: 'loopback',
    probe: async () => ({}),
    openApi: async () => mergeOpenApi([]),
    ...options,
  });
  await gateway.listen(0, '127.0.0.1');
  return gateway;
}

/** Every service at one address, for proxying to a single stand-in. */
export function everyServiceAt(url: string): Record<ServiceName, string> {
  return Object.fromEntries(serviceNames.map((name) => [name, url])) as Record<ServiceName, string>;
}

/** A raw connection to the gateway, for calls `fetch` cannot make (a body still arriving after the answer, say). */
export function rawConnection(base: string): { socket: Socket; received: () => string; errors: Error[]; answered: (count: number) => Promise<void> } {
  const socket = connect(Number(new URL(base).port), '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1').on('data', (text: string) => (received += text));
  const errors: Error[] = [];
  socket.on('error', (error) => errors.push(error));
  /** Resolves once `count` answers have begun to arrive on the connection. */
  const answered = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => ((received.match(/HTTP\/1\.1 /g) ?? []).length >= count ? resolve() : socket.once('data', check));
      check();
    });
  return { socket, received: () => received, errors, answered };
}
