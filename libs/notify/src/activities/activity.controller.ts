import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiErrors, PaginationQuery } from '@shiliu/platform';
import { ActivityService } from './activity.service';
import type { ActivityItem } from './activity.view';

/** admin-and-startup.md §7 `/admin/monitor/activities` and §2.6: the newest registrations, notes and comments. */
@ApiTags('admin-monitor')
@ApiBearerAuth()
@Controller('api/admin/monitor')
export class ActivityController {
  constructor(private readonly activities: ActivityService) {}

  @ApiOperation({ summary: '最新动态：注册、发布笔记、发表评论（最新在前；仅管理员）' })
  @ApiErrors(403)
  @AdminOnly()
  @Get('activities')
  recent(@Query() query: PaginationQuery): Promise<ActivityItem[]> {
    return this.activities.recent(query);
  }
}
