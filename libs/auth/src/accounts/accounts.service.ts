import { BadRequestException, ConflictException, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CaptchaService } from '../captcha/captcha.service';
import { AuthRateLimits } from '../security/auth-rate-limits';
import { IpLocation } from '../security/ip-location';
import { PasswordHasher } from '../security/password-hasher';
import { type ClientInfo, SessionsService, type TokenPair } from '../sessions/sessions.service';
import { publicUser, type PublicUser } from '../users/public-user';
import { USER_ID_TAKEN, UsersService } from '../users/users.service';
import type { LoginDto, RegisterDto } from './account.dto';

export const LOGIN_FAILED = '小石榴号或密码错误';
export const CAPTCHA_FAILED = '验证码错误或已过期，请重新获取';
export const ACCOUNT_DISABLED = '账号已被禁用，请联系管理员';

export interface SignedIn {
  tokens: TokenPair;
  user: PublicUser;
}

/** Registration and sign-in for students. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly hasher: PasswordHasher,
    private readonly captcha: CaptchaService,
    private readonly limits: AuthRateLimits,
    private readonly location: IpLocation,
  ) {}

  async register(input: RegisterDto, client: ClientInfo): Promise<SignedIn> {
    await this.limits.consume('registerPerIp', client.ip ?? 'unknown');
    if (!(await this.captcha.check(input.captchaId, input.captchaText))) throw new BadRequestException(CAPTCHA_FAILED);
    if (!(await this.users.isUserIdFree(input.user_id))) throw new ConflictException(USER_ID_TAKEN);
    return this.dataSource.transaction(async (tx) => {
      const user = await this.users.register(
        { userId: input.user_id, nickname: input.nickname, password: input.password, location: this.location.locate(client.ip), bio: input.bio },
        tx,
      );
      const tokens = await this.sessions.open({ audience: 'user', subjectId: user.id, name: user.user_id }, client, tx);
      return { tokens, user: publicUser(user) };
    });
  }

  /** A wrong password and an unknown ID get the same answer after the same work. */
  async login(input: LoginDto, client: ClientInfo): Promise<SignedIn> {
    const captcha = () => this.captcha.check(input.captchaId ?? '', input.captchaText ?? '');
    const user = await this.limits.signIn(client.ip, input.user_id, captcha, async () => {
      const found = await this.users.findByUserId(input.user_id);
      const passwordHash = found ? await this.users.passwordHashOf(found.id) : null;
      return found && (await this.hasher.verify(passwordHash, input.password)) ? found : null;
    });
    if (!user) throw new UnauthorizedException(LOGIN_FAILED);
    // Only after the password matched, so that the answer says nothing about an account to someone without it.
    if (!(await this.users.isActive(user.id))) throw new ForbiddenException(ACCOUNT_DISABLED);
    const tokens = await this.sessions.open({ audience: 'user', subjectId: user.id, name: user.user_id }, client);
    return { tokens, user: publicUser(user) };
  }

  async refresh(refreshToken: string): Promise<{ tokens: TokenPair }> {
    const tokens = await this.sessions.refresh(refreshToken, 'user', async (id) => (await this.users.findById(id))?.user_id ?? null);
    return { tokens };
  }
}
