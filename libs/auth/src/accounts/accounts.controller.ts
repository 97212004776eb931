import { Body, Controller, Get, Post, Query, Req, UnauthorizedException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, messageForStatus, type Principal, Reply, UserAuth, UserOrAdminAuth } from '@shiliu/platform';
import type { FastifyRequest as Request } from 'fastify';
import { AdminsService } from '../admins/admins.service';
import type { PublicAdmin } from '../admins/public-admin';
import { CaptchaService } from '../captcha/captcha.service';
import { AuthRateLimits } from '../security/auth-rate-limits';
import { SessionsService } from '../sessions/sessions.service';
import { type PublicUser, publicUser } from '../users/public-user';
import { UsersService } from '../users/users.service';
import { CheckUserIdQuery, LoginDto, RefreshDto, RegisterDto } from './account.dto';
import { AccountsService } from './accounts.service';

export function clientOf(req: Request) {
  return { ip: req.ip, userAgent: req.headers['user-agent'] };
}

@ApiTags('auth')
@Controller('api/auth')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly captcha: CaptchaService,
    private readonly limits: AuthRateLimits,
    private readonly admins: AdminsService,
  ) {}

  @ApiOperation({ summary: '获取图形验证码（4位，5分钟内有效，仅可使用一次）' })
  @Get('captcha')
  async getCaptcha(@Req() req: Request) {
    await this.limits.consume('captchaPerIp', req.ip ?? 'unknown');
    return this.captcha.create();
  }

  @ApiOperation({ summary: '检查小石榴号是否可用' })
  @Get('check-user-id')
  async checkUserId(@Query() query: CheckUserIdQuery) {
    return { isUnique: await this.users.isUserIdFree(query.user_id) };
  }

  @ApiOperation({ summary: '注册并登录' })
  @ApiErrors(409)
  @Post('register')
  async register(@Body() body: RegisterDto, @Req() req: Request) {
    return new Reply('注册成功', await this.accounts.register(body, clientOf(req)));
  }

  @ApiOperation({ summary: '登录（被管理员停用的账号：403）' })
  @ApiErrors(401, 403)
  @Post('login')
  async login(@Body() body: LoginDto, @Req() req: Request) {
    return new Reply('登录成功', await this.accounts.login(body, clientOf(req)));
  }

  @ApiOperation({ summary: '用刷新令牌换取新的令牌（刷新令牌每次使用后轮换）' })
  @ApiErrors(401)
  @Post('refresh')
  refresh(@Body() body: RefreshDto) {
    return this.accounts.refresh(body.refresh_token);
  }

  @ApiOperation({ summary: '退出登录（撤销当前会话）' })
  @UserAuth()
  @Post('logout')
  async logout(@CurrentPrincipal() principal: Principal) {
    await this.sessions.revoke(principal.sessionId);
    return new Reply('退出登录成功', null);
  }

  /** The spec's admin pages send the administrator's token on every call, this one included: it answers the administrator. */
  @ApiOperation({ summary: '当前登录用户（管理员的令牌：当前管理员）' })
  @UserOrAdminAuth()
  @Get('me')
  async me(@CurrentPrincipal() principal: Principal): Promise<PublicUser | PublicAdmin> {
    if (!(await this.sessions.isLive(principal.sessionId))) throw new UnauthorizedException(messageForStatus(401));
    if (principal.audience === 'admin') return this.admins.get(principal.id);
    const user = await this.users.findById(principal.id);
    if (!user) throw new UnauthorizedException(messageForStatus(401));
    return publicUser(user);
  }
}
