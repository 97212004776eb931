import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { concatMap, type Observable } from 'rxjs';
import { ReadCache } from './read-cache';

/** A call that may have written answers only once its changes have reached the read cache (ReadCache.settle). */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly cache: ReadCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const method = context.switchToHttp().getRequest<Request>().method;
    if (method === 'GET' || method === 'HEAD') return next.handle();
    return next.handle().pipe(
      concatMap(async (value: unknown) => {
        await this.cache.settle();
        return value;
      }),
    );
  }
}
