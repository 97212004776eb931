import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { userDeleted, userRegistered, userUpdated } from '@shiliu/contracts';
import { BannedWords, messageForStatus, Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { USER_ID_PATTERN } from '../accounts/account.dto';
import { PasswordHasher } from '../security/password-hasher';
import { SessionsService } from '../sessions/sessions.service';
import { profileSnapshot, publicUser, type PublicUser } from './public-user';
import type { UpdateProfileDto } from './user.dto';
import { type ProfileChanges, UserRepository, type UserRow } from './user.repository';

export const DEFAULT_AVATAR = '/default-avatar.svg';
export const DEFAULT_BIO = '用户没有任何简介';
export const USER_ID_TAKEN = '小石榴号已存在';

/** Words that are paths under /api/users/, so no one may take them as a product ID. */
const RESERVED_USER_IDS = new Set(['search', 'verification', 'suggestions']);

export interface NewUser {
  userId: string;
  nickname: string;
  password: string;
  location: string;
  avatar?: string;
  bio?: string;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly users: UserRepository,
    private readonly bannedWords: BannedWords,
  ) {}

  async isUserIdFree(userId: string): Promise<boolean> {
    if (!USER_ID_PATTERN.test(userId) || RESERVED_USER_IDS.has(userId.toLowerCase())) return false;
    return !(await this.users.userIdTaken(this.dataSource.manager, userId));
  }

  /** Creates the account and announces it (user.registered) in one transaction. */
  async register(input: NewUser, manager?: EntityManager): Promise<UserRow> {
    if (RESERVED_USER_IDS.has(input.userId.toLowerCase())) throw new ConflictException(USER_ID_TAKEN);
    this.bannedWords.check(input.nickname, input.bio);
    const passwordHash = await this.hasher.hash(input.password);
    const work = async (tx: EntityManager) => {
      const user = await this.users.insert(tx, {
        user_id: input.userId,
        nickname: input.nickname,
        passwordHash,
        avatar: input.avatar ?? DEFAULT_AVATAR,
        bio: input.bio?.trim() || DEFAULT_BIO,
        location: input.location,
      });
      if (!user) throw new ConflictException(USER_ID_TAKEN);
      await this.outbox.add(tx, userRegistered, { user: profileSnapshot(user) });
      return user;
    };
    return manager ? work(manager) : this.dataSource.transaction(work);
  }

  async findByUserId(userId: string): Promise<UserRow | null> {
    return this.users.findByUserId(this.dataSource.manager, userId);
  }

  async findById(id: string): Promise<UserRow | null> {
    return this.users.findById(this.dataSource.manager, id);
  }

  async isActive(id: string): Promise<boolean> {
    return this.users.isActive(this.dataSource.manager, id);
  }

  async passwordHashOf(id: string): Promise<string | null> {
    return this.users.passwordHashOf(this.dataSource.manager, id);
  }

  async getPublic(userId: string): Promise<PublicUser> {
    const user = await this.findByUserId(userId);
    if (!user) throw new NotFoundException('用户不存在');
    return publicUser(user);
  }

  /** Loads the account a signed-in user may change: their own, by product ID (403 for anyone else's). */
  async requireOwn(principalId: string, userId: string): Promise<UserRow> {
    const user = await this.findByUserId(userId);
    if (!user) throw new NotFoundException('用户不存在');
    if (user.id !== principalId) throw new ForbiddenException(messageForStatus(403));
    return user;
  }

  async updateProfile(user: UserRow, changes: UpdateProfileDto): Promise<PublicUser> {
    this.bannedWords.check(changes.nickname, changes.bio, changes.major, ...(changes.interests ?? []));
    const patch: ProfileChanges = {};
    if (changes.nickname !== undefined) patch.nickname = changes.nickname;
    if (changes.bio !== undefined) patch.bio = changes.bio || DEFAULT_BIO;
    if (changes.avatar !== undefined) patch.avatar = changes.avatar;
    if (changes.gender !== undefined) patch.gender = changes.gender || null;
    if (changes.zodiac_sign !== undefined) patch.zodiac_sign = changes.zodiac_sign || null;
    if (changes.mbti !== undefined) patch.mbti = changes.mbti ? changes.mbti.toUpperCase() : null;
    if (changes.education !== undefined) patch.education = changes.education || null;
    if (changes.major !== undefined) patch.major = changes.major || null;
    if (changes.interests !== undefined) patch.interests = changes.interests;
    return this.dataSource.transaction(async (tx) => {
      const updated = await this.users.updateProfile(tx, user.id, patch);
      if (!updated) throw new NotFoundException('用户不存在');
      const shown = ['nickname', 'bio', 'avatar'] as const;
      if (shown.some((field) => updated[field] !== user[field])) await this.outbox.add(tx, userUpdated, { user: profileSnapshot(updated) });
      return publicUser(updated);
    });
  }

  async changePassword(user: UserRow, currentPassword: string, newPassword: string, keepSession: string | null): Promise<void> {
    const currentHash = await this.passwordHashOf(user.id);
    if (!(await this.hasher.verify(currentHash, currentPassword))) throw new BadPassword('当前密码错误');
    if (currentPassword === newPassword) throw new BadPassword('新密码不能与当前密码相同');
    const passwordHash = await this.hasher.hash(newPassword);
    const revoked = await this.dataSource.transaction(async (tx) => {
      await this.users.setPasswordHash(tx, user.id, passwordHash);
      return this.sessions.revokeAll('user', user.id, keepSession, tx);
    });
    await this.sessions.announce(revoked);
  }

  /**
   * Removes the account with its applications and revokes its sessions (their rows stay, so a restart announces
   * them again while their tokens could live); every other service removes its data on user.deleted.
   */
  async deleteAccount(user: UserRow): Promise<void> {
    const revoked = await this.dataSource.transaction(async (tx) => {
      const sessions = await this.sessions.revokeAll('user', user.id, null, tx);
      await this.users.delete(tx, user.id);
      await this.outbox.add(tx, userDeleted, { id: Number(user.id), user_id: user.user_id });
      return sessions;
    });
    await this.sessions.announce(revoked);
  }

  /** Nickname or product ID, for the mention picker. */
  async search(keyword: string, limit: number): Promise<PublicUser[]> {
    return (await this.users.search(this.dataSource.manager, keyword, limit)).map(publicUser);
  }
}

/** A wrong current password or an unchanged one: 400, not 401, so the client keeps its session. */
export class BadPassword extends BadRequestException {
  constructor(message: string) {
    super(message);
  }
}
