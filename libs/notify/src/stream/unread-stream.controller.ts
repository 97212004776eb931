import { Controller, Get, Inject, Post, Query, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { bearerToken, CurrentPrincipal, ERROR_ENVELOPE_SCHEMA, messageForStatus, type Principal, REVOCATION_LIST, type RevocationList, takeOverResponse, UserAuth } from '@shiliu/platform';
import type { FastifyReply, FastifyRequest as Request } from 'fastify';
import { decodeJwt } from 'jose';
import { NotificationService } from '../notifications/notification.service';
import { NOTIFY_SETTINGS, type NotifySettings } from '../notify.settings';
import { StreamTickets } from './stream-tickets';
import { StreamQuery } from './stream.dto';
import type { StreamTicketView } from './stream.view';
import { UnreadHub } from './unread-hub';

/**
 * public-side.md §4 "Unread badge", live: a server-sent events stream of the user's unread counts, sent when it
 * opens and again whenever they change. The browser's EventSource cannot send headers, and a token in a URL ends up
 * in proxies' logs, so the stream opens with a single-use ticket the client takes just before with its token. The
 * stream lives no longer than that token: it ends when the session is revoked (logout and the like) and when the
 * token expires, and the client reconnects with a fresh ticket.
 */
@ApiTags('notifications')
@Controller('api/notifications')
export class UnreadStreamController {
  constructor(
    private readonly hub: UnreadHub,
    private readonly tickets: StreamTickets,
    private readonly notifications: NotificationService,
    @Inject(NOTIFY_SETTINGS) private readonly settings: NotifySettings,
    @Inject(REVOCATION_LIST) private readonly revocations: RevocationList,
  ) {}

  @ApiOperation({ summary: '取得打开未读数推送的一次性票据（约 30 秒内有效，只能用一次）' })
  @UserAuth()
  @Post('stream/ticket')
  async ticket(@CurrentPrincipal() principal: Principal, @Req() req: Request): Promise<StreamTicketView> {
    // The guard has verified the token: its expiry is the stream's.
    const { exp } = decodeJwt(bearerToken(req.headers.authorization)!);
    const ticket = await this.tickets.issue({ id: principal.id, sessionId: principal.sessionId, expiresAt: exp! * 1000 });
    return { ticket, expires_in: this.tickets.lifetimeSeconds };
  }

  @ApiOperation({ summary: '未读数实时推送（SSE：事件 unread 携带各栏未读数，打开时与每次变化时发送；空闲时定时发送心跳注释行）' })
  @ApiProduces('text/event-stream')
  // Each server-sent event as a client parses it: `event: unread` with the counts as JSON in `data` (heartbeats are comment lines, no events).
  @ApiResponse({
    status: 200,
    description: 'text/event-stream',
    content: {
      'text/event-stream': {
        schema: {
          type: 'object',
          required: ['event', 'data'],
          properties: {
            event: { type: 'string', enum: ['unread'] },
            data: { type: 'string', description: 'JSON: comments, likes, collections, follows, total, count' },
          },
        },
      },
    },
  })
  // Declared with its JSON body: the route's `text/event-stream` would otherwise be taken for every answer's type.
  @ApiResponse({ status: 401, description: messageForStatus(401), content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_SCHEMA}` } } } })
  @Get('stream')
  async stream(@Query() query: StreamQuery, @Res() reply: FastifyReply): Promise<void> {
    const holder = await this.tickets.redeem(query.ticket);
    if (!holder || holder.expiresAt <= Date.now() || this.revocations.isRevoked(holder.sessionId)) throw new UnauthorizedException(messageForStatus(401));
    const userId = Number(holder.id);
    const res = takeOverResponse(reply);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();

    // One read at a time, in order, so a burst of changes never sends an older count after a newer one; changes
    // that come while a read waits its turn are all in the counts it reads, so they share it instead of queueing a
    // read each behind it (a burst of likes would otherwise put the badge ever further behind).
    let sending = Promise.resolve();
    let waiting = false;
    const push = (): void => {
      if (waiting) return;
      waiting = true;
      sending = sending
        .then(async () => {
          waiting = false;
          const counts = await this.notifications.counts(userId);
          if (!res.writableEnded) res.write(`event: unread\ndata: ${JSON.stringify(counts)}\n\n`);
        })
        .catch(() => {
          res.destroy();
        });
    };
    push();
    // A stopping service ends the stream itself (AnswerTracker), and the browser reconnects to another replica.
    const unwatch = this.hub.watch(userId, push);
    const heartbeat = setInterval(() => {
      if (!res.writableEnded) res.write(': heartbeat\n\n');
    }, this.settings.NOTIFY_STREAM_HEARTBEAT_MS);
    const revoked = setInterval(() => {
      if (this.revocations.isRevoked(holder.sessionId)) res.end();
    }, this.settings.NOTIFY_STREAM_REVOCATION_CHECK_MS);
    const expired = setTimeout(() => res.end(), holder.expiresAt - Date.now());
    res.on('close', () => {
      clearInterval(heartbeat);
      clearInterval(revoked);
      clearTimeout(expired);
      unwatch();
    });
  }
}
