import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, type Principal, Reply, UserAuth } from '@shiliu/platform';
import { ChangePasswordDto, SearchUsersQuery, UpdateProfileDto } from './user.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  // Declared before ':user_id' so that "search" is never read as a product ID.
  @ApiOperation({ summary: '按昵称或小石榴号搜索用户（@提及）' })
  @Get('search')
  async search(@Query() query: SearchUsersQuery) {
    return { users: await this.users.search(query.keyword, query.limit) };
  }

  @ApiOperation({ summary: '用户公开资料' })
  @Get(':user_id')
  profile(@Param('user_id') userId: string) {
    return this.users.getPublic(userId);
  }

  @ApiOperation({ summary: '个性标签（性别、星座、MBTI、学历、专业、兴趣）' })
  @Get(':user_id/personality-tags')
  async personalityTags(@Param('user_id') userId: string) {
    const user = await this.users.getPublic(userId);
    const { gender, zodiac_sign, mbti, education, major, interests } = user;
    return { gender, zodiac_sign, mbti, education, major, interests };
  }

  @ApiOperation({ summary: '修改自己的资料' })
  @ApiErrors(403)
  @UserAuth()
  @Put(':user_id')
  async update(@CurrentPrincipal() principal: Principal, @Param('user_id') userId: string, @Body() body: UpdateProfileDto) {
    const user = await this.users.requireOwn(principal.id, userId);
    return new Reply('更新成功', await this.users.updateProfile(user, body));
  }

  @ApiOperation({ summary: '修改密码（其他设备上的登录随之失效）' })
  @ApiErrors(403)
  @UserAuth()
  @Put(':user_id/password')
  async changePassword(@CurrentPrincipal() principal: Principal, @Param('user_id') userId: string, @Body() body: ChangePasswordDto) {
    const user = await this.users.requireOwn(principal.id, userId);
    await this.users.changePassword(user, body.currentPassword, body.newPassword, principal.sessionId);
    return new Reply('密码修改成功', null);
  }

  @ApiOperation({ summary: '注销账号（删除自己的全部数据，不可恢复）' })
  @ApiErrors(403)
  @UserAuth()
  @Delete(':user_id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('user_id') userId: string) {
    await this.users.deleteAccount(await this.users.requireOwn(principal.id, userId));
    return new Reply('账号已注销', null);
  }
}
