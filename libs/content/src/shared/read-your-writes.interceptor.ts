import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest as Request } from 'fastify';
import { concatMap, type Observable } from 'rxjs';
import { ReadCache } from './read-cache';

const SETTLES_ITSELF = 'settlesItsOwnCache';

/**
 * Marks a handler whose writes commit before it returns and whose changes it applies to this process's cache itself
 * (ReadCache.apply), so its answer need not wait for the round trip of `settle`.
 */
export const SettlesItsOwnCache = (): MethodDecorator => SetMetadata(SETTLES_ITSELF, true);

/** A call that may have written answers only once its changes have reached the read cache (ReadCache.settle). */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly cache: ReadCache, private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const method = context.switchToHttp().getRequest<Request>().method;
    if (method === 'GET' || method === 'HEAD' || this.reflector.get<boolean>(SETTLES_ITSELF, context.getHandler())) return next.handle();
    return next.handle().pipe(
      concatMap(async (value: unknown) => {
        await this.cache.settle();
        return value;
      }),
    );
  }
}
