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
