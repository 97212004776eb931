import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, IdPipe, PaginationQuery, type Principal, Reply, UserAuth } from '@shiliu/platform';
import { GroupableListQuery, GroupReadDto, ReadAllQuery } from './notification.dto';
import { NotificationService } from './notification.service';
import { NotificationGroupPage, NotificationPage, UnreadCounts } from './notification.view';

/** public-side.md §7 "Notifications": the four tabs, the unread counts, marking read and deleting. */
@ApiTags('notifications')
@ApiBearerAuth()
@UserAuth()
@Controller('api/notifications')
export class NotificationController {
  constructor(private readonly notifications: NotificationService) {}

  @ApiOperation({ summary: '评论和@：评论笔记、回复评论、评论中@、笔记中@（最新在前）' })
  @Get('comments')
  comments(@CurrentPrincipal() principal: Principal, @Query() query: PaginationQuery): Promise<NotificationPage> {
    return this.notifications.list(principal, 'comments', query);
  }

  @ApiOperation({ summary: '赞：赞了笔记、赞了评论（最新在前）；group=target 时每篇笔记（或每条评论）每天一组' })
  @Get('likes')
  likes(@CurrentPrincipal() principal: Principal, @Query() query: GroupableListQuery): Promise<NotificationPage | NotificationGroupPage> {
    return query.group ? this.notifications.groups(principal, 'likes', query) : this.notifications.list(principal, 'likes', query);
  }

  @ApiOperation({ summary: '收藏了笔记（最新在前）；group=target 时每篇笔记每天一组' })
  @Get('collections')
  collections(@CurrentPrincipal() principal: Principal, @Query() query: GroupableListQuery): Promise<NotificationPage | NotificationGroupPage> {
    return query.group ? this.notifications.groups(principal, 'collections', query) : this.notifications.list(principal, 'collections', query);
  }

  @ApiOperation({ summary: '新增关注（最新在前）' })
  @Get('follows')
  follows(@CurrentPrincipal() principal: Principal, @Query() query: PaginationQuery): Promise<NotificationPage> {
    return this.notifications.list(principal, 'follows', query);
  }

  @ApiOperation({ summary: '未读总数' })
  @Get('unread-count')
  unreadCount(@CurrentPrincipal() principal: Principal): Promise<UnreadCounts> {
    return this.notifications.counts(Number(principal.id));
  }

  @ApiOperation({ summary: '各栏未读数' })
  @Get('unread-count-by-type')
  unreadCountByType(@CurrentPrincipal() principal: Principal): Promise<UnreadCounts> {
    return this.notifications.counts(Number(principal.id));
  }

  @ApiOperation({ summary: '全部标记为已读（可只标记一栏）；答复标记后的未读数' })
  @Put('read-all')
  async readAll(@CurrentPrincipal() principal: Principal, @Query() query: ReadAllQuery): Promise<Reply<UnreadCounts>> {
    return new Reply('已全部标记为已读', await this.notifications.readAll(principal, query.type));
  }

  @ApiOperation({ summary: '把一组通知（group=target 的一项：type、target_id、day）全部标记为已读；答复标记后的未读数' })
  @ApiErrors(404)
  @Put('groups/read')
  async readGroup(@CurrentPrincipal() principal: Principal, @Body() group: GroupReadDto): Promise<Reply<UnreadCounts>> {
    return new Reply('已标记为已读', await this.notifications.readGroup(principal, group));
  }

  @ApiOperation({ summary: '标记一条通知为已读；答复标记后的未读数' })
  @Put(':id/read')
  async read(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number): Promise<Reply<UnreadCounts>> {
    return new Reply('已标记为已读', await this.notifications.read(principal, id));
  }

  @ApiOperation({ summary: '删除一条通知；答复删除后的未读数' })
  @Delete(':id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number): Promise<Reply<UnreadCounts>> {
    return new Reply('删除成功', await this.notifications.remove(principal, id));
  }
}
