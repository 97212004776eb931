import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, type Principal, Reply, UserAuth } from '@shiliu/platform';
import { IdPipe } from '@shiliu/platform';
import { SettlesItsOwnCache } from '../shared/read-your-writes.interceptor';
import { LikeDto } from './reaction.dto';
import { type CollectState, type LikeState, ReactionService } from './reaction.service';

@ApiTags('likes')
@ApiBearerAuth()
@Controller('api')
export class ReactionController {
  constructor(private readonly reactions: ReactionService) {}

  @ApiOperation({ summary: '点赞笔记或评论（重复点赞不重复计数）' })
  @ApiErrors(404)
  @UserAuth()
  @SettlesItsOwnCache()
  @Post('likes')
  async like(@CurrentPrincipal() principal: Principal, @Body() body: LikeDto): Promise<Reply<LikeState>> {
    return new Reply('点赞成功', await this.reactions.like(principal, body.target_type, body.target_id));
  }

  @ApiOperation({ summary: '取消点赞（未点赞时无变化）' })
  @ApiErrors(404)
  @UserAuth()
  @SettlesItsOwnCache()
  @Delete('likes')
  async unlike(@CurrentPrincipal() principal: Principal, @Body() body: LikeDto): Promise<Reply<LikeState>> {
    return new Reply('取消点赞成功', await this.reactions.unlike(principal, body.target_type, body.target_id));
  }

  @ApiOperation({ summary: '收藏笔记' })
  @UserAuth()
  @SettlesItsOwnCache()
  @Post('posts/:id/collect')
  async collect(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number): Promise<Reply<CollectState>> {
    return new Reply('收藏成功', await this.reactions.collect(principal, id));
  }

  @ApiOperation({ summary: '取消收藏' })
  @UserAuth()
  @SettlesItsOwnCache()
  @Delete('posts/:id/collect')
  async uncollect(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number): Promise<Reply<CollectState>> {
    return new Reply('取消收藏成功', await this.reactions.uncollect(principal, id));
  }
}
