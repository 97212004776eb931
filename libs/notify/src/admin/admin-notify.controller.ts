import { Body, Controller, Delete, Get, NotFoundException, Param, Post, Put } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AdminActedPayload, adminActed, type EventEnvelope } from '@shiliu/contracts';
import {
  AdminIdsDto,
  AdminList,
  AdminListParams,
  type AdminListQuery,
  AdminOperation,
  AdminUserField,
  ApiErrors,
  type EventContext,
  IdPipe,
  messageForStatus,
  Reply,
} from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { NotificationType } from '../notifications/notification-type';
import { ADMIN_ACTION_LIST, AdminNotifyRepository, NOTIFICATION_LIST } from './admin-notify.repository';
import { AdminNotifyService } from './admin-notify.service';

const toFlag = ({ value }: { value: unknown }): unknown => (value === 1 || value === '1' || value === 'true' ? true : value === 0 || value === '0' || value === 'false' ? false : value);

/** admin-and-startup.md §5 "Notification form": receiver, sender, type and title, and what it is about. */
export class AdminNotificationDto {
  @AdminUserField('请输入接收者')
  user_id!: string;

  @AdminUserField('请输入发送者')
  sender_id!: string;

  @Type(() => Number)
  @IsIn(Object.values(NotificationType), { message: '通知类型只能是 1-8' })
  type!: NotificationType;

  @Type(() => Number)
  @IsInt({ message: '请输入通知对象 ID' })
  @Min(1, { message: '请输入通知对象 ID' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '通知对象 ID 无效' })
  target_id!: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '笔记 ID 无效' })
  @Min(1, { message: '笔记 ID 无效' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '笔记 ID 无效' })
  post_id?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: '评论 ID 无效' })
  @Min(1, { message: '评论 ID 无效' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '评论 ID 无效' })
  comment_id?: number;

  /** What the back office's form asks for (§5); without one the title is said by the type, as for any other. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsString({ message: '标题必须是文本' })
  @MaxLength(100, { message: '标题不能超过100个字符' })
  title?: string;
}

/** §4: a notification's editable field is is_read. */
export class AdminNotificationReadDto {
  @Transform(toFlag)
  @IsBoolean({ message: 'is_read 必须是 true/false 或 1/0' })
  is_read!: boolean;
}

/** admin-and-startup.md §7 `/admin/notifications`. */
@ApiTags('admin-notifications')
@Controller('api/admin/notifications')
export class AdminNotificationsController {
  constructor(private readonly notify: AdminNotifyService) {}

  @ApiOperation({ summary: '通知列表（含接收者与发送者的小石榴号、昵称；仅管理员）' })
  @AdminList(NOTIFICATION_LIST)
  @Get()
  list(@AdminListParams(NOTIFICATION_LIST) query: AdminListQuery) {
    return this.notify.list(query);
  }

  @ApiOperation({ summary: '新建通知（同一接收者、发送者、类型、对象只有一条；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminNotificationDto) {
    return new Reply('通知创建成功', await this.notify.create(body));
  }

  @ApiOperation({ summary: '标记已读或未读（未读数随之更新；仅管理员）' })
  @AdminOperation()
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminNotificationReadDto) {
    return new Reply('通知更新成功', await this.notify.setRead(id, body.is_read));
  }

  @ApiOperation({ summary: '删除通知（仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    if ((await this.notify.remove([id])).deletedCount === 0) throw new NotFoundException(messageForStatus(404));
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量删除通知（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.notify.remove(body.ids));
  }
}

/** The administrators' audit log: every write made with an administrator's token, in any service. */
@ApiTags('admin-monitor')
@Controller('api/admin/monitor')
export class AdminActionsController {
  constructor(private readonly notify: AdminNotifyService, private readonly lists: AdminNotifyRepository) {}

  @ApiOperation({ summary: '管理员操作日志：谁、在何时、对什么做了哪种修改（最新在前；仅管理员）' })
  @AdminList(ADMIN_ACTION_LIST)
  @Get('admin-actions')
  list(@AdminListParams(ADMIN_ACTION_LIST) query: AdminListQuery) {
    return this.notify.actions(query);
  }

  @EventPattern(adminActed.type)
  async acted(@Payload() envelope: EventEnvelope<AdminActedPayload>, @Ctx() context: EventContext): Promise<void> {
    await this.lists.recordAction(context.manager, envelope.id, envelope.payload, envelope.occurredAt);
  }
}
