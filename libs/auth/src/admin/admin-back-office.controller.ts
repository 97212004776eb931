import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminIdsDto, AdminList, AdminListParams, type AdminListQuery, AdminOperation, ApiErrors, CurrentPrincipal, IdPipe, type Principal, Reply } from '@shiliu/platform';
import { CreateAdminDto, AdminPasswordDto } from '../admins/admin.dto';
import { AdminsService } from '../admins/admins.service';
import {
  AdminCreateApplicationDto,
  AdminCreateSessionDto,
  AdminCreateUserDto,
  AdminSessionDto,
  AdminUpdateApplicationDto,
  AdminUpdateUserDto,
  RejectApplicationDto,
  SessionIdsDto,
} from './admin.dto';
import { AdminAccountsService } from './admin-accounts.service';
import { AdminAuditService } from './admin-audit.service';
import { ADMIN_LIST, AUDIT_LIST, SESSION_LIST, USER_LIST } from './admin-lists.repository';
import { AdminUsersService } from './admin-users.service';

/** admin-and-startup.md §7 `GET /api/admin/test-users` (listed on the docs page): the demo accounts to try the product as. */
@ApiTags('admin-users')
@Controller('api/admin/test-users')
export class AdminTestUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @ApiOperation({ summary: '测试用户（演示数据中的学生账号；以其身份体验可用 POST /api/admin/sessions 创建会话；仅管理员）' })
  @AdminOperation()
  @Get()
  list() {
    return this.users.testUsers();
  }
}

/** admin-and-startup.md §7 `/admin/users`: the back office's users table. */
@ApiTags('admin-users')
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @ApiOperation({ summary: '用户列表（分页、筛选、排序；仅管理员）' })
  @AdminList(USER_LIST)
  @Get()
  list(@AdminListParams(USER_LIST) query: AdminListQuery) {
    return this.users.list(query);
  }

  @ApiOperation({ summary: '新建用户（仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Post()
  async create(@Body() body: AdminCreateUserDto) {
    return new Reply('用户创建成功', await this.users.create(body));
  }

  @ApiOperation({ summary: '修改用户资料、小石榴号、IP属地与认证状态（仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminUpdateUserDto) {
    return new Reply('用户更新成功', await this.users.update(id, body));
  }

  @ApiOperation({ summary: '删除用户（与用户注销账号相同：其笔记、评论、关注等随之删除；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    await this.users.remove(id);
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量删除用户（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.users.removeMany(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/audit`: verification applications and their review (shown as 认证管理). */
@ApiTags('admin-audit')
@Controller('api/admin/audit')
export class AdminAuditController {
  constructor(private readonly audit: AdminAuditService) {}

  @ApiOperation({ summary: '认证申请列表（身份证号、手机号已打码；仅管理员）' })
  @AdminList(AUDIT_LIST)
  @Get()
  list(@AdminListParams(AUDIT_LIST) query: AdminListQuery) {
    return this.audit.list(query);
  }

  @ApiOperation({ summary: '为用户提交认证申请（仅管理员）' })
  @AdminOperation()
  @ApiErrors(404, 409)
  @Post()
  async create(@Body() body: AdminCreateApplicationDto) {
    return new Reply('认证申请创建成功', await this.audit.create(body.user_id, body.type, body.content));
  }

  @ApiOperation({ summary: '通过认证申请：用户获得认证标识（仅管理员）' })
  @AdminOperation()
  @Put(':id/approve')
  async approve(@Param('id', IdPipe) id: number) {
    return new Reply('审核通过', await this.audit.approve(id));
  }

  @ApiOperation({ summary: '拒绝认证申请，可不带请求体；拒绝原因 reject_reason 选填（仅管理员）' })
  @ApiBody({ type: RejectApplicationDto, required: false })
  @AdminOperation()
  @Put(':id/reject')
  async reject(@Param('id', IdPipe) id: number, @Body() body: RejectApplicationDto) {
    return new Reply('已拒绝', await this.audit.reject(id, body.reject_reason || body.reason));
  }

  @ApiOperation({ summary: '修改认证申请状态（0 待审核，1 通过，2 拒绝并填写原因；仅管理员）' })
  @AdminOperation()
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminUpdateApplicationDto) {
    return new Reply('认证申请更新成功', await this.audit.update(id, body));
  }

  @ApiOperation({ summary: '删除认证申请（已通过的申请删除后用户失去认证标识；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    await this.audit.remove(id);
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量删除认证申请（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.audit.removeMany(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/sessions`: students' sessions; ending one revokes its tokens everywhere. */
@ApiTags('admin-sessions')
@Controller('api/admin/sessions')
export class AdminSessionsController {
  constructor(private readonly accounts: AdminAccountsService) {}

  @ApiOperation({ summary: '会话列表（仅管理员）' })
  @AdminList(SESSION_LIST)
  @Get()
  list(@AdminListParams(SESSION_LIST) query: AdminListQuery) {
    return this.accounts.sessionList(query);
  }

  @ApiOperation({ summary: '为用户创建会话（如同其登录，返回会话与令牌，用于以测试用户身份体验；已禁用的账号 403；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminCreateSessionDto) {
    return new Reply('会话创建成功', await this.accounts.startSession(body.user_id, body.user_agent));
  }

  @ApiOperation({ summary: '使会话失效（is_active: false；仅管理员）' })
  @AdminOperation()
  @Put(':id')
  async update(@Param('id') id: string, @Body() _body: AdminSessionDto) {
    await this.accounts.endSession(id);
    return new Reply('会话已失效', null);
  }

  @ApiOperation({ summary: '结束会话（仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id') id: string) {
    await this.accounts.endSession(id);
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量结束会话（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: SessionIdsDto) {
    return new Reply('批量删除成功', await this.accounts.endSessions(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/admins`: administrator accounts as a management table. */
@ApiTags('admin-admins')
@Controller('api/admin/admins')
export class AdminAdminsController {
  constructor(private readonly accounts: AdminAccountsService, private readonly admins: AdminsService) {}

  @ApiOperation({ summary: '管理员列表（分页；仅管理员）' })
  @AdminList(ADMIN_LIST)
  @Get()
  list(@AdminListParams(ADMIN_LIST) query: AdminListQuery) {
    return this.accounts.adminList(query);
  }

  @ApiOperation({ summary: '新建管理员（仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Post()
  async create(@Body() body: CreateAdminDto) {
    return new Reply('管理员创建成功', await this.admins.create(body.username, body.password));
  }

  @ApiOperation({ summary: '修改管理员密码（仅管理员）' })
  @AdminOperation()
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminPasswordDto) {
    await this.admins.setPassword(String(id), body.password);
    return new Reply('管理员更新成功', await this.admins.get(String(id)));
  }

  @ApiOperation({ summary: '删除管理员（不能删除自己与最后一名管理员；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number) {
    await this.admins.remove(String(id), principal.id);
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量删除管理员（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@CurrentPrincipal() principal: Principal, @Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.accounts.removeAdmins(body.ids, principal.id));
  }
}
