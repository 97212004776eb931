import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AdminActedPayload } from '@shiliu/contracts';
import { concatMap, from, map, Observable, of } from 'rxjs';
import { DataSource } from 'typeorm';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { SERVICE_NAME } from '../service/tokens';
import { type PendingAdminAction, recordAdminAction, runAsAdminAction } from './admin-action-recorder';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Records every write made with an administrator's token as an `admin.acted` event, whichever service and handler
 * served it, so no admin endpoint can forget its audit entry; notify keeps the log the console reads. The handler
 * runs as a pending admin action: each of its transactions that changes something carries the record and commits
 * with it (AdminActionRecorder), so a crash cannot lose the entry of a change that happened. A successful call that
 * changed nothing in a transaction of its own (a single statement outside one, a revocation list) is recorded
 * after it returns, under the same event id; a failed call whose transactions all rolled back leaves no entry.
 */
@Injectable()
export class AdminActionInterceptor implements NestInterceptor {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_NAME) private readonly service: string,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = request.principal;
    if (!principal || principal.audience !== 'admin' || !WRITES.has(request.method)) return next.handle();
    const path = request.url.split('?')[0];
    const action: PendingAdminAction = {
      eventId: randomUUID(),
      payload: {
        admin_id: Number(principal.id),
        admin_name: principal.userId,
        service: this.service,
        method: request.method as AdminActedPayload['method'],
        path,
        entity: entityOf(path),
        target_ids: targetIds(path, request.body),
      },
      recorded: false,
    };
    const handled = new Observable<unknown>((subscriber) => runAsAdminAction(action, () => next.handle().subscribe(subscriber)));
    return handled.pipe(
      concatMap((result: unknown) => {
        if (action.recorded) return of(result);
        return from(this.dataSource.transaction((manager) => recordAdminAction(manager, action))).pipe(map(() => result));
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
