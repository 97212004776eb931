import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, StreamUserAuth } from '@shiliu/platform';
import type { Request, Response } from 'express';
import { NotificationService } from '../notifications/notification.service';
import { NOTIFY_SETTINGS, type NotifySettings } from '../notify.settings';
import { StreamQuery } from './stream.dto';
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
    private readonly hub: UnreadHub,
    private readonly notifications: NotificationService,
    @Inject(NOTIFY_SETTINGS) private readonly settings: NotifySettings,
  ) {}

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
  @StreamUserAuth()
  @Get('stream')
  stream(@CurrentPrincipal() principal: Principal, @Query() _query: StreamQuery, @Req() req: Request, @Res() res: Response): void {
    const userId = Number(principal.id);
    res.status(200);
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
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), this.settings.NOTIFY_STREAM_HEARTBEAT_MS);
    req.on('close', () => {
      clearInterval(heartbeat);
      unwatch();
    });
  }
}
