import { Controller, Get, Module, Param } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InProcessUpstream, routeLimits } from '@shiliu/gateway';
import { createLogger, EnvelopeExceptionFilter, EnvelopeInterceptor, metricsRegistry, ServiceHttpAdapter } from '@shiliu/platform';
import { waitFor } from '@shiliu/platform/testing';
import { testGateway } from './test-gateway';

/** Calls the test lets answer when it chooses; each resolves with its id. */
const held = new Map<string, () => void>();

@Controller('api/posts')
class HeldController {
  @Get(':id')
  detail(@Param('id') id: string): Promise<{ id: string }> | { id: string } {
    if (id === '1') return { id };
    return new Promise((resolve) => held.set(id, () => resolve({ id })));
  }
}

@Module({ controllers: [HeldController] })
class HeldModule {}

async function droppedSoFar(): Promise<number> {
  const metric = (await metricsRegistry.getSingleMetric('shiliu_http_late_answers_dropped_total')?.get())?.values ?? [];
  return metric.find((value) => value.labels.service === 'held')?.value ?? 0;
}

/**
 * Embedded mode hands the gateway's own request and response to the service's pipeline, so a service that answers
 * after the gateway's time-out has answered 504 writes to an answered call: the answer is dropped and counted, and
 * the process goes on serving.
 */
describe('an answer that comes after the gateway timed its call out, in embedded mode', () => {
  let service: NestFastifyApplication;
  let gateway: NestExpressApplication;
  let base: string;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    const logger = createLogger('test', 'silent');
    service = await NestFactory.create<NestFastifyApplication>(HeldModule, new ServiceHttpAdapter('held', logger, 'loopback'), { logger: false });
    service.useGlobalInterceptors(new EnvelopeInterceptor());
    service.useGlobalFilters(new EnvelopeExceptionFilter(service.get(HttpAdapterHost), logger, 'held'));
    await service.init();
    const fastify = service.getHttpAdapter().getInstance();
    await fastify.ready();
    gateway = await testGateway({
      mode: 'embedded',
      upstream: new InProcessUpstream({ content: (req, res) => fastify.routing(req, res) }),
      routeLimits: { ...routeLimits, default: { ...routeLimits.default, timeoutMs: 300 } },
    });
    base = await gateway.getUrl();
  });

  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    for (const release of held.values()) release();
    await gateway?.close();
    await service?.close();
  });

  it('answers 504, drops the late answer, counts it, and keeps serving', async () => {
    const before = await droppedSoFar();
    const timedOut = await fetch(`${base}/api/posts/2`);
    expect(timedOut.status).toBe(504);
    expect(await timedOut.json()).toEqual({ code: 504, message: '服务响应超时，请稍后重试', data: null });

    held.get('2')!();
    // The dropped answer is counted once the service's pipeline has tried to write it.
    await waitFor('the late answer to be counted', async () => (await droppedSoFar()) > before, 30_000, 10);
    expect(await droppedSoFar()).toBe(before + 1);

    const next = await fetch(`${base}/api/posts/1`);
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ code: 200, message: 'success', data: { id: '1' } });
    expect(rejections).toEqual([]);
  });
});
