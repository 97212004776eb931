import { Body, Controller, Delete, Get, Param, Post, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminOnly, ApiErrors, CurrentPrincipal, type Principal, Reply } from '@shiliu/platform';
import type { FastifyRequest as Request } from 'fastify';
import { RefreshDto } from '../accounts/account.dto';
import { clientOf } from '../accounts/accounts.controller';
import { SessionsService } from '../sessions/sessions.service';
import { AdminLoginDto, AdminPasswordDto, CreateAdminDto } from './admin.dto';
import { AdminsService } from './admins.service';

@ApiTags('admin-auth')
@Controller('api/auth/admin')
export class AdminAuthController {
  constructor(private readonly admins: AdminsService, private readonly sessions: SessionsService) {}

  @ApiOperation({ summary: '管理员登录' })
  @ApiErrors(401)
  @Post('login')
  async login(@Body() body: AdminLoginDto, @Req() req: Request) {
    return new Reply('登录成功', await this.admins.login(body, clientOf(req)));
  }

  @ApiOperation({ summary: '管理员刷新令牌' })
  @ApiErrors(401)
  @Post('refresh')
  refresh(@Body() body: RefreshDto) {
    return this.admins.refresh(body.refresh_token);
  }

  @ApiOperation({ summary: '当前管理员' })
  @ApiErrors(404)
  @AdminAuth()
  @Get('me')
  me(@CurrentPrincipal() principal: Principal) {
    return this.admins.get(principal.id);
  }

  @ApiOperation({ summary: '管理员退出登录' })
  @AdminAuth()
  @Post('logout')
  async logout(@CurrentPrincipal() principal: Principal) {
    await this.sessions.revoke(principal.sessionId);
    return new Reply('退出登录成功', null);
  }

  @ApiOperation({ summary: '管理员列表' })
  @AdminOnly()
  @Get('admins')
  list() {
    return this.admins.list();
  }

  @ApiOperation({ summary: '新建管理员' })
  @ApiErrors(409)
  @AdminOnly()
  @Post('admins')
  async create(@Body() body: CreateAdminDto) {
    return new Reply('管理员创建成功', await this.admins.create(body.username, body.password));
  }

  @ApiOperation({ summary: '修改管理员密码' })
  @AdminOnly()
  @Put('admins/:id/password')
  async setPassword(@Param('id') id: string, @Body() body: AdminPasswordDto) {
    await this.admins.setPassword(numericId(id), body.password);
    return new Reply('密码修改成功', null);
  }

  @ApiOperation({ summary: '修改管理员（目前只能改密码）' })
  @AdminOnly()
  @Put('admins/:id')
  async update(@Param('id') id: string, @Body() body: AdminPasswordDto) {
    await this.admins.setPassword(numericId(id), body.password);
    return new Reply('管理员更新成功', await this.admins.get(numericId(id)));
  }

  @ApiOperation({ summary: '删除管理员' })
  @AdminOnly()
  @Delete('admins/:id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.admins.remove(numericId(id), principal.id);
    return new Reply('删除成功', null);
  }
}

/** Path ids are positive integers; anything else names nothing (404 rather than a database error). */
function numericId(id: string): string {
  return /^[1-9]\d{0,17}$/.test(id) ? id : '0';
}
