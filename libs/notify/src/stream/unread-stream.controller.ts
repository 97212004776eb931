import { Controller, Get, Inject, Query, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { bearerToken, messageForStatus, type Principal, REVOCATION_LIST, type RevocationList, TokenVerifier } from '@shiliu/platform';
import type { Request, Response } from 'express';
import { NotificationService } from '../notifications/notification.service';
import { NOTIFY_SETTINGS, type NotifySettings } from '../notify.settings';
import { UnreadHub } from './unread-hub';

/**
 * public-side.md §4 "Unread badge", live: a server-sent events stream of the user's unread counts, sent when it
 * opens and again whenever they change. The browser's EventSource cannot send headers, so the access token may come
 * as the `access_token` query parameter; neither the gateway's nor the service's request log records query strings.
 */
@ApiTags('notifications')
@Controller('api/notifications')
export class UnreadStreamController {
  constructor(
    private readonly verifier: TokenVerifier,
    @Inject(REVOCATION_LIST) private readonly revocations: RevocationList,
    private readonly hub: UnreadHub,
    private readonly notifications: NotificationService,
    @Inject(NOTIFY_SETTINGS) private readonly settings: NotifySettings,
  ) {}

  @ApiOperation({ summary: '未读数实时推送（text/event-stream，事件 unread 携带各栏未读数；定时发送心跳注释行）' })
  @ApiQuery({ name: 'access_token', required: false, description: '访问令牌（EventSource 无法发送请求头时使用）' })
  @ApiProduces('text/event-stream')
  @Get('stream')
  async stream(@Req() req: Request, @Res() res: Response, @Query('access_token') queryToken?: string): Promise<void> {
    const principal = await this.authenticate(bearerToken(req.headers.authorization) ?? queryToken ?? null);
    const userId = Number(principal.id);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();

    // One read at a time, in order, so a burst of changes never sends an older count after a newer one.
    let sending = Promise.resolve();
    const push = (): void => {
      sending = sending
        .then(async () => {
          const counts = await this.notifications.counts(userId);
          if (!res.writableEnded) res.write(`event: unread\ndata: ${JSON.stringify(counts)}\n\n`);
        })
        .catch(() => {
          res.destroy();
        });
    };
    push();
    const unwatch = this.hub.watch(userId, push);
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), this.settings.NOTIFY_STREAM_HEARTBEAT_MS);
    res.on('close', () => {
      clearInterval(heartbeat);
      unwatch();
    });
  }

  private async authenticate(token: string | null): Promise<Principal> {
    const principal = token ? await this.verifier.verify(token, 'user') : null;
    if (!principal || this.revocations.isRevoked(principal.sessionId)) throw new UnauthorizedException(messageForStatus(401));
    return principal;
  }
}
