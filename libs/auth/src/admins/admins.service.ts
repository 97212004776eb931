import { randomBytes } from 'node:crypto';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, UnauthorizedException } from '@nestjs/common';
import { LOGGER } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';
import { CaptchaService } from '../captcha/captcha.service';
import { AuthRateLimits } from '../security/auth-rate-limits';
import { PasswordHasher } from '../security/password-hasher';
import { type ClientInfo, SessionsService, type TokenPair } from '../sessions/sessions.service';
import type { AdminLoginDto } from './admin.dto';
import { AdminRepository } from './admin.repository';
import { publicAdmin, type PublicAdmin } from './public-admin';

export const ADMIN_LOGIN_FAILED = '登录失败，请检查用户名和密码';
export const FIRST_ADMIN = 'admin';

/** Administrator accounts and their sign-in; the first administrator is created when the service first starts. */
@Injectable()
export class AdminsService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly limits: AuthRateLimits,
    private readonly captcha: CaptchaService,
    private readonly admins: AdminRepository,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Creates `admin` from ADMIN_PASSWORD, or with a generated password printed this once; replicas racing here create one. */
  async onApplicationBootstrap(): Promise<void> {
    if (await this.admins.any(this.dataSource.manager)) return;
    const password = this.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    const created = await this.admins.insert(this.dataSource.manager, FIRST_ADMIN, await this.hasher.hash(password));
    if (created && !this.config.ADMIN_PASSWORD) {
      this.logger.warn(`created the administrator "${FIRST_ADMIN}" with the generated password ${password} (shown only this once; set ADMIN_PASSWORD to choose it)`);
    } else if (created) {
      this.logger.info(`created the administrator "${FIRST_ADMIN}" with the password from ADMIN_PASSWORD`);
    }
  }

  async login({ username, password, captchaId, captchaText }: AdminLoginDto, client: ClientInfo): Promise<{ admin: PublicAdmin; tokens: TokenPair }> {
    const captcha = () => this.captcha.check(captchaId ?? '', captchaText ?? '');
    const admin = await this.limits.signIn(client.ip, `admin:${username}`, captcha, async () => {
      const found = await this.admins.findForSignIn(this.dataSource.manager, username);
      return (await this.hasher.verify(found?.password_hash, password)) ? found : null;
    });
    if (!admin) throw new UnauthorizedException(ADMIN_LOGIN_FAILED);
    await this.admins.signedIn(this.dataSource.manager, admin.id);
    const tokens = await this.sessions.open({ audience: 'admin', subjectId: admin.id, name: admin.username }, client);
    return { admin: publicAdmin(admin), tokens };
  }

  async refresh(refreshToken: string): Promise<{ tokens: TokenPair }> {
    return { tokens: await this.sessions.refresh(refreshToken, 'admin', async (id) => (await this.admins.findById(this.dataSource.manager, id))?.username ?? null) };
  }

  async get(id: string): Promise<PublicAdmin> {
    const admin = await this.admins.findById(this.dataSource.manager, id);
    if (!admin) throw new NotFoundException('管理员不存在');
    return publicAdmin(admin);
  }

  async list(): Promise<PublicAdmin[]> {
    return (await this.admins.list(this.dataSource.manager)).map(publicAdmin);
  }

  async create(username: string, password: string): Promise<PublicAdmin> {
    const passwordHash = await this.hasher.hash(password);
    // In a transaction that a refusal rolls back, so the administrator's audit entry commits with the row alone (AdminActionRecorder).
    const admin = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.admins.insert(manager, username, passwordHash);
      if (!inserted) throw new ConflictException('用户名已存在');
      return inserted;
    });
    return publicAdmin(admin);
  }

  /** A new password signs the administrator out everywhere. */
  async setPassword(id: string, password: string): Promise<void> {
    await this.get(id);
    const passwordHash = await this.hasher.hash(password);
    const revoked = await this.dataSource.transaction(async (tx) => {
      await this.admins.setPasswordHash(tx, id, passwordHash);
      return this.sessions.revokeAll('admin', id, null, tx);
    });
    await this.sessions.announce(revoked);
  }

  /** Never the last administrator, and never oneself, so the back office always has a way in. */
  async remove(id: string, actingAdminId: string): Promise<void> {
    if (id === actingAdminId) throw new BadRequestException('不能删除当前登录的管理员');
    const revoked = await this.dataSource.transaction(async (tx) => {
      await this.admins.lockAll(tx);
      if (!(await this.admins.findById(tx, id))) throw new NotFoundException('管理员不存在');
      if ((await this.admins.count(tx)) <= 1) throw new BadRequestException('至少保留一名管理员');
      await this.admins.delete(tx, id);
      return this.sessions.revokeAll('admin', id, null, tx);
    });
    await this.sessions.announce(revoked);
  }
}
