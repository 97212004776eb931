import { Body, ConflictException, Controller, Delete, Get, Injectable, NotFoundException, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminIdsDto,
  AdminList,
  AdminListParams,
  type AdminListQuery,
  AdminOperation,
  AdminUserField,
  adminPage,
  type AdminPage,
  ApiErrors,
  IdPipe,
  messageForStatus,
  type Principal,
  Reply,
} from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { FollowService } from '../follows/follow.service';
import { type AdminFollowRow, AdminFollowsRepository, FOLLOW_LIST } from './admin-follows.repository';

/** admin-and-startup.md §5 "Follow form": follower_id, following_id (product IDs, or numeric ids). */
export class AdminFollowDto {
  @AdminUserField('请输入关注者')
  follower_id!: string;

  @AdminUserField('请输入被关注者')
  following_id!: string;
}

/** admin-and-startup.md §3 "Follow". */
export interface AdminFollowView {
  id: number;
  follower_id: number;
  follower_display_id: string | null;
  follower_nickname: string | null;
  following_id: number;
  following_display_id: string | null;
  following_nickname: string | null;
  created_at: string;
}

const view = (row: AdminFollowRow): AdminFollowView => ({
  ...row,
  id: Number(row.id),
  follower_id: Number(row.follower_id),
  following_id: Number(row.following_id),
  created_at: row.created_at.toISOString(),
});

/**
 * The follower's own follow and unfollow, run for them: the counters of both users and the user.followed /
 * user.unfollowed events move exactly as when they tap the button (notify's follow notification included).
 */
function asFollower(card: { id: string; user_id: string }): Principal {
  return { audience: 'user', id: String(card.id), userId: card.user_id, sessionId: 'admin-back-office' };
}

@Injectable()
export class AdminFollowsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly follows: FollowService,
    private readonly lists: AdminFollowsRepository,
  ) {}

  async list(query: AdminListQuery): Promise<AdminPage<AdminFollowView>> {
    const { rows, total } = await this.lists.list(this.dataSource.manager, query);
    return adminPage(rows.map(view), query, total);
  }

  async create(followerId: string, followingId: string): Promise<AdminFollowView> {
    const follower = await this.lists.card(this.dataSource.manager, followerId);
    const following = await this.lists.card(this.dataSource.manager, followingId);
    if (!follower || !following) throw new NotFoundException('用户不存在');
    await this.follows.follow(asFollower(follower), following.user_id);
    return view((await this.lists.between(this.dataSource.manager, Number(follower.id), Number(following.id)))!);
  }

  /**
   * Moves a follow to another pair: the old follower unfollows and the new one follows, in one transaction (a new
   * row, so the answer carries its new id). Unchanged, it changes nothing; following oneself is refused by the follow
   * itself (400); a pair that already follows is a 409, as content answers for a like or collection moved onto one
   * that exists.
   */
  async update(id: number, followerId: string, followingId: string): Promise<AdminFollowView> {
    const follow = await this.lists.one(this.dataSource.manager, id);
    if (!follow || follow.follower_display_id === null || follow.following_display_id === null) throw new NotFoundException('关注关系不存在');
    const follower = await this.lists.card(this.dataSource.manager, followerId);
    const following = await this.lists.card(this.dataSource.manager, followingId);
    if (!follower || !following) throw new NotFoundException('用户不存在');
    const existing = await this.lists.between(this.dataSource.manager, Number(follower.id), Number(following.id));
    if (existing && existing.id !== follow.id) throw new ConflictException('关注者已经关注过该用户');
    if (!existing) {
      await this.follows.replace(
        { follower: asFollower({ id: follow.follower_id, user_id: follow.follower_display_id }), targetUserId: follow.following_display_id },
        { follower: asFollower(follower), targetUserId: following.user_id },
      );
    }
    return view((await this.lists.between(this.dataSource.manager, Number(follower.id), Number(following.id)))!);
  }

  async remove(ids: number[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      const follow = await this.lists.one(this.dataSource.manager, id);
      if (!follow || follow.follower_display_id === null || follow.following_display_id === null) continue;
      await this.follows.unfollow(asFollower({ id: follow.follower_id, user_id: follow.follower_display_id }), follow.following_display_id);
      deletedCount += 1;
    }
    return { deletedCount };
  }
}

/** admin-and-startup.md §7 `/admin/follows`. */
@ApiTags('admin-follows')
@Controller('api/admin/follows')
export class AdminFollowsController {
  constructor(private readonly follows: AdminFollowsService) {}

  @ApiOperation({ summary: '关注关系列表（含双方小石榴号与昵称；仅管理员）' })
  @AdminList(FOLLOW_LIST)
  @Get()
  list(@AdminListParams(FOLLOW_LIST) query: AdminListQuery) {
    return this.follows.list(query);
  }

  @ApiOperation({ summary: '以关注者的身份关注（计数与通知随之更新；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminFollowDto) {
    return new Reply('关注关系创建成功', await this.follows.create(body.follower_id, body.following_id));
  }

  @ApiOperation({ summary: '修改关注关系（改关注者或被关注者：原关注取消、新关注生成，双方计数与通知随之更新；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404, 409)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminFollowDto) {
    return new Reply('关注关系更新成功', await this.follows.update(id, body.follower_id, body.following_id));
  }

  @ApiOperation({ summary: '取消关注（仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    if ((await this.follows.remove([id])).deletedCount === 0) throw new NotFoundException(messageForStatus(404));
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量取消关注（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.follows.remove(body.ids));
  }
}
