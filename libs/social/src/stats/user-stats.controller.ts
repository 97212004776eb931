import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, OptionalUserAuth, type Principal } from '@shiliu/platform';
import { UserStatsService } from './user-stats.service';
import { UserCardView, UserStatsView } from './user-stats.view';

@ApiTags('users')
@Controller('api/users/:user_id')
export class UserStatsController {
  constructor(private readonly stats: UserStatsService) {}

  @ApiOperation({ summary: '用户的关注数、粉丝数、笔记数与获赞和收藏' })
  @Get('stats')
  counters(@Param('user_id') userId: string): Promise<UserStatsView> {
    return this.stats.stats(userId);
  }

  @ApiOperation({ summary: '悬停用户卡片：资料、计数、关注按钮与最新三篇笔记的封面' })
  @OptionalUserAuth()
  @Get('card')
  card(@Param('user_id') userId: string, @CurrentPrincipal() principal?: Principal): Promise<UserCardView> {
    return this.stats.card(principal, userId);
  }
}
