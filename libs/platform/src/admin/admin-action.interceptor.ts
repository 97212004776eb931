import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { type AdminActedPayload, adminActed } from '@shiliu/contracts';
import { concatMap, from, map, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { Outbox } from '../events/outbox';
import { SERVICE_NAME } from '../service/tokens';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Records every successful write made with an administrator's token as an `admin.acted` event, whichever service
 * and handler served it, so no admin endpoint can forget its audit entry; notify keeps the log the console reads.
 * The event goes out after the change commits: a failed call leaves no entry, a crash between the two loses one.
 */
@Injectable()
export class AdminActionInterceptor implements NestInterceptor {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = request.principal;
    if (!principal || principal.audience !== 'admin' || !WRITES.has(request.method)) return next.handle();
    return next.handle().pipe(
      concatMap((result: unknown) => {
        const path = request.path;
        const payload: AdminActedPayload = {
          admin_id: Number(principal.id),
          admin_name: principal.userId,
          service: this.service,
          method: request.method as AdminActedPayload['method'],
          path,
          entity: entityOf(path),
          target_ids: targetIds(path, request.body),
        };
        return from(this.dataSource.transaction((manager) => this.outbox.add(manager, adminActed, payload))).pipe(map(() => result));
      }),
    );
  }
}

/** `/api/admin/posts/12` → `posts`; `/api/auth/admin/admins/3/password` → `admins`. */
export function entityOf(path: string): string {
  const match = /\/admin\/([a-z-]+)/.exec(path);
  return match ? match[1] : path;
}

function targetIds(path: string, body: unknown): number[] {
  const fromPath = [...path.matchAll(/\/(\d{1,15})(?=\/|$)/g)].map((match) => Number(match[1]));
  if (fromPath.length > 0) return fromPath;
  const ids = (body as { ids?: unknown } | null | undefined)?.ids;
  return Array.isArray(ids) ? ids.map(Number).filter(Number.isSafeInteger) : [];
}
