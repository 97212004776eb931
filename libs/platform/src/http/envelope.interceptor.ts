import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { envelope, type Envelope } from './envelope';

/** Marks a controller result that already is an envelope (for a custom success message). */
export class Reply<T> {
  constructor(readonly message: string, readonly data: T) {}
}

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope | unknown> {
    if (context.getType() !== 'http') return next.handle();
    // Express's response and Fastify's reply both say and set their status this way.
    const response = context.switchToHttp().getResponse<{ statusCode: number; status(code: number): unknown }>();
    return next.handle().pipe(
      map((result: unknown) => {
        // The HTTP status equals the envelope's code (DESIGN.md §4), so a created resource is a 200 too.
        if (response.statusCode === 201) response.status(200);
        return successEnvelope(result);
      }),
    );
  }
}

/** A handler's result as its answer: a `Reply` with its message, anything else as `success`. */
function successEnvelope(result: unknown): Envelope {
  if (result instanceof Reply) return envelope(200, result.message, result.data);
  return envelope(200, 'success', result ?? null);
}
