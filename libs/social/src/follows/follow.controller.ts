import { Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, OptionalUserAuth, PaginationQuery, type Principal, Reply, UserAuth } from '@shiliu/platform';
import { FollowState } from './follow-state';
import { FollowStatusBatchQuery } from './follow.dto';
import { FollowService } from './follow.service';
import { FollowersPage, FollowingPage, FollowStates, MutualFollowsPage } from './follow.view';

/** public-side.md §7 "Users": follow, follow states and follow lists; `{user_id}` is the public product ID. */
@ApiTags('follows')
@ApiBearerAuth()
@Controller('api/users')
export class FollowController {
  constructor(private readonly follows: FollowService) {}

  @ApiOperation({ summary: '批量查询关注状态（最多 100 个用户）' })
  @OptionalUserAuth()
  @Get('follow-status')
  async statuses(@Query() query: FollowStatusBatchQuery, @CurrentPrincipal() principal?: Principal): Promise<FollowStates> {
    return { statuses: await this.follows.statuses(principal, query.ids) };
  }

  @ApiOperation({ summary: '关注用户（重复关注无副作用）' })
  @UserAuth()
  @Post(':user_id/follow')
  async follow(@CurrentPrincipal() principal: Principal, @Param('user_id') userId: string): Promise<Reply<FollowState>> {
    return new Reply('关注成功', await this.follows.follow(principal, userId));
  }

  @ApiOperation({ summary: '取消关注（未关注时无副作用）' })
  @UserAuth()
  @Delete(':user_id/follow')
  async unfollow(@CurrentPrincipal() principal: Principal, @Param('user_id') userId: string): Promise<Reply<FollowState>> {
    return new Reply('取消关注成功', await this.follows.unfollow(principal, userId));
  }

  @ApiOperation({ summary: '当前用户对该用户的关注状态' })
  @OptionalUserAuth()
  @Get(':user_id/follow-status')
  status(@Param('user_id') userId: string, @CurrentPrincipal() principal?: Principal): Promise<FollowState> {
    return this.follows.status(principal, userId);
  }

  @ApiOperation({ summary: '该用户关注的人（最近关注在前）' })
  @OptionalUserAuth()
  @Get(':user_id/following')
  async following(@Param('user_id') userId: string, @Query() query: PaginationQuery, @CurrentPrincipal() principal?: Principal): Promise<FollowingPage> {
    const { items, pagination } = await this.follows.list('following', principal, userId, query);
    return { following: items, pagination };
  }

  @ApiOperation({ summary: '该用户的粉丝（最近关注在前）' })
  @OptionalUserAuth()
  @Get(':user_id/followers')
  async followers(@Param('user_id') userId: string, @Query() query: PaginationQuery, @CurrentPrincipal() principal?: Principal): Promise<FollowersPage> {
    const { items, pagination } = await this.follows.list('followers', principal, userId, query);
    return { followers: items, pagination };
  }

  @ApiOperation({ summary: '与该用户互相关注的人（最近互关在前）' })
  @OptionalUserAuth()
  @Get(':user_id/mutual-follows')
  async mutualFollows(@Param('user_id') userId: string, @Query() query: PaginationQuery, @CurrentPrincipal() principal?: Principal): Promise<MutualFollowsPage> {
    const { items, pagination } = await this.follows.list('mutualFollows', principal, userId, query);
    return { mutualFollows: items, pagination };
  }
}
