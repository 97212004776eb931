import { BadRequestException, ConflictException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { userDeleted, userRegistered, userUpdated } from '@shiliu/contracts';
import { messageForStatus, Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { USER_ID_PATTERN } from '../accounts/account.dto';
import { PasswordHasher } from '../security/password-hasher';
import { SessionsService } from '../sessions/sessions.service';
import { profileSnapshot, publicUser, type PublicUser } from './public-user';
import type { UpdateProfileDto } from './user.dto';
import { UserEntity } from './user.entity';

export const DEFAULT_AVATAR = '/default-avatar.svg';
export const DEFAULT_BIO = '用户没有任何简介';
export const USER_ID_TAKEN = '小石榴号已存在';

/** Words that are paths under /api/users/, so no one may take them as a product ID. */
const RESERVED_USER_IDS = new Set(['search', 'verification']);

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
  ) {}

  async isUserIdFree(userId: string): Promise<boolean> {
    if (!USER_ID_PATTERN.test(userId) || RESERVED_USER_IDS.has(userId.toLowerCase())) return false;
    return !(await this.dataSource.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.user_id) = lower(:userId)', { userId }).getExists());
  }

  /** Creates the account and announces it (user.registered) in one transaction. */
  async register(input: NewUser, manager?: EntityManager): Promise<UserEntity> {
    if (RESERVED_USER_IDS.has(input.userId.toLowerCase())) throw new ConflictException(USER_ID_TAKEN);
    const passwordHash = await this.hasher.hash(input.password);
    const work = async (tx: EntityManager) => {
      const repository = tx.getRepository(UserEntity);
      const user = repository.create({
        userId: input.userId,
        nickname: input.nickname,
        passwordHash,
        avatar: input.avatar ?? DEFAULT_AVATAR,
        bio: input.bio?.trim() || DEFAULT_BIO,
        location: input.location,
        verified: 0,
        interests: [],
      });
      try {
        await repository.insert(user);
      } catch (error) {
        if ((error as { code?: string }).code === '23505') throw new ConflictException(USER_ID_TAKEN);
        throw error;
      }
      const saved = await repository.findOneByOrFail({ id: user.id });
      await this.outbox.add(tx, userRegistered, { user: profileSnapshot(saved) });
      return saved;
    };
    return manager ? work(manager) : this.dataSource.transaction(work);
  }

  async findByUserId(userId: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).createQueryBuilder('u').where('lower(u.user_id) = lower(:userId)', { userId }).getOne();
  }

  async findById(id: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  async passwordHashOf(id: string): Promise<string | null> {
    const row = await this.dataSource.getRepository(UserEntity).createQueryBuilder('u').addSelect('u.passwordHash').where('u.id = :id', { id }).getOne();
    return row?.passwordHash ?? null;
  }

  async getPublic(userId: string): Promise<PublicUser> {
    const user = await this.findByUserId(userId);
    if (!user) throw new NotFoundException('用户不存在');
    return publicUser(user);
  }

  /** Loads the account a signed-in user may change: their own, by product ID (403 for anyone else's). */
  async requireOwn(principalId: string, userId: string): Promise<UserEntity> {
    const user = await this.findByUserId(userId);
    if (!user) throw new NotFoundException('用户不存在');
    if (user.id !== principalId) throw new ForbiddenException(messageForStatus(403));
    return user;
  }

  async updateProfile(user: UserEntity, changes: UpdateProfileDto): Promise<PublicUser> {
    return this.dataSource.transaction(async (tx) => {
      const repository = tx.getRepository(UserEntity);
      const patch: Partial<UserEntity> = {};
      if (changes.nickname !== undefined) patch.nickname = changes.nickname;
      if (changes.bio !== undefined) patch.bio = changes.bio || DEFAULT_BIO;
      if (changes.avatar !== undefined) patch.avatar = changes.avatar;
      if (changes.gender !== undefined) patch.gender = changes.gender || null;
      if (changes.zodiac_sign !== undefined) patch.zodiacSign = changes.zodiac_sign || null;
      if (changes.mbti !== undefined) patch.mbti = changes.mbti ? changes.mbti.toUpperCase() : null;
      if (changes.education !== undefined) patch.education = changes.education || null;
      if (changes.major !== undefined) patch.major = changes.major || null;
      if (changes.interests !== undefined) patch.interests = changes.interests;
      if (Object.keys(patch).length > 0) await repository.update({ id: user.id }, patch);
      const updated = await repository.findOneByOrFail({ id: user.id });
      const shown = ['nickname', 'bio', 'avatar'] as const;
      if (shown.some((field) => updated[field] !== user[field])) await this.outbox.add(tx, userUpdated, { user: profileSnapshot(updated) });
      return publicUser(updated);
    });
  }

  async changePassword(user: UserEntity, currentPassword: string, newPassword: string, keepSession: string | null): Promise<void> {
    const currentHash = await this.passwordHashOf(user.id);
    if (!(await this.hasher.verify(currentHash, currentPassword))) throw new BadPassword('当前密码错误');
    if (currentPassword === newPassword) throw new BadPassword('新密码不能与当前密码相同');
    const passwordHash = await this.hasher.hash(newPassword);
    const revoked = await this.dataSource.transaction(async (tx) => {
      await tx.getRepository(UserEntity).update({ id: user.id }, { passwordHash });
      return this.sessions.revokeAll('user', user.id, keepSession, tx);
    });
    await this.sessions.announce(revoked);
  }

  /**
   * Removes the account with its applications and revokes its sessions (their rows stay, so a restart announces
   * them again while their tokens could live); every other service removes its data on user.deleted.
   */
  async deleteAccount(user: UserEntity): Promise<void> {
    const revoked = await this.dataSource.transaction(async (tx) => {
      const sessions = await this.sessions.revokeAll('user', user.id, null, tx);
      await tx.getRepository(UserEntity).delete({ id: user.id });
      await this.outbox.add(tx, userDeleted, { id: Number(user.id), user_id: user.userId });
      return sessions;
    });
    await this.sessions.announce(revoked);
  }

  /** Nickname or product ID, for the mention picker. */
  async search(keyword: string, limit: number): Promise<PublicUser[]> {
    const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const users = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('u.nickname ILIKE :pattern OR u.user_id ILIKE :pattern', { pattern })
      .orderBy('(lower(u.user_id) = lower(:exact) OR u.nickname = :exact)', 'DESC')
      .addOrderBy('u.id', 'ASC')
      .setParameter('exact', keyword)
      .limit(limit)
      .getMany();
    return users.map(publicUser);
  }
}

/** A wrong current password or an unchanged one: 400, not 401, so the client keeps its session. */
export class BadPassword extends BadRequestException {
  constructor(message: string) {
    super(message);
  }
}
