import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { userUpdated, userVerified } from '@shiliu/contracts';
import { adminPage, type AdminListQuery, type AdminPage, Outbox } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { SessionsService } from '../sessions/sessions.service';
import { profileSnapshot } from '../users/public-user';
import { UserRepository, type UserRow } from '../users/user.repository';
import { USER_ID_TAKEN, UsersService } from '../users/users.service';
import type { AdminCreateUserDto, AdminUpdateUserDto } from './admin.dto';
import { AdminListsRepository, type AdminUserRow } from './admin-lists.repository';
import { DEMO_USER_IDS } from '../seed/demo-users.seed';

export interface PersonalityTags {
  gender: string | null;
  zodiac_sign: string | null;
  mbti: string | null;
  education: string | null;
  major: string | null;
  interests: string[];
}

/** admin-and-startup.md §3 "User (admin list)": the profile with its personality tags gathered for the tags modal. */
export interface AdminUserView extends PersonalityTags {
  id: number;
  user_id: string;
  nickname: string;
  avatar: string;
  bio: string;
  location: string;
  verified: 0 | 1 | 2;
  personality_tags: PersonalityTags;
  /** Whether the account may sign in. */
  is_active: boolean;
  /** From social's follow events (auth's `user_counters` read model). */
  follow_count: number;
  fans_count: number;
  /** Likes the user's notes have received, from content's like events (auth's `post_likes` read model). */
  like_count: number;
  created_at: string;
}

function toAdminUser(row: AdminUserRow): AdminUserView {
  const tags: PersonalityTags = { gender: row.gender, zodiac_sign: row.zodiac_sign, mbti: row.mbti, education: row.education, major: row.major, interests: row.interests };
  return {
    id: Number(row.id),
    user_id: row.user_id,
    nickname: row.nickname,
    avatar: row.avatar,
    bio: row.bio,
    location: row.location,
    verified: row.verified,
    ...tags,
    personality_tags: tags,
    is_active: row.is_active,
    follow_count: row.follow_count,
    fans_count: row.fans_count,
    like_count: row.like_count,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Users as the back office manages them. Every change goes through what a student's own change goes through
 * (UsersService: the same rules and the same user.* events), so the other services see an administrator's edit
 * or deletion exactly as they see the user's.
 */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly users: UsersService,
    private readonly userRows: UserRepository,
    private readonly lists: AdminListsRepository,
    private readonly sessions: SessionsService,
  ) {}

  async list(query: AdminListQuery): Promise<AdminPage<AdminUserView>> {
    const { rows, total } = await this.lists.users(this.dataSource.manager, query);
    return adminPage(rows.map(toAdminUser), query, total);
  }

  /** The demo accounts that exist now, for trying the product (a session for one: POST /api/admin/sessions). */
  async testUsers(): Promise<AdminUserView[]> {
    return (await this.lists.usersByUserIds(this.dataSource.manager, DEMO_USER_IDS)).map(toAdminUser);
  }

  async create(form: AdminCreateUserDto): Promise<AdminUserView> {
    if (!(await this.users.isUserIdFree(form.user_id))) throw new ConflictException(USER_ID_TAKEN);
    const user = await this.users.register({ userId: form.user_id, nickname: form.nickname, password: form.password, location: form.location || '未知', bio: form.bio, avatar: form.avatar });
    // Registration took the product ID, nickname, password and place; the rest is an ordinary edit.
    return this.update(Number(user.id), { ...form, user_id: undefined, location: undefined });
  }

  async update(id: number, form: AdminUpdateUserDto): Promise<AdminUserView> {
    const user = await this.require(id);
    await this.users.updateProfile(user, form);
    const revoked = await this.dataSource.transaction(async (tx) => {
      await this.userRows.lock(tx, user.id);
      const current = (await this.userRows.findById(tx, user.id))!;
      const userId = form.user_id ?? current.user_id;
      const location = form.location ?? current.location;
      if (userId !== current.user_id || location !== current.location) {
        if (userId.toLowerCase() !== current.user_id.toLowerCase() && !(await this.users.isUserIdFree(userId))) throw new ConflictException(USER_ID_TAKEN);
        if (!(await this.lists.setUserIdentity(tx, user.id, userId, location))) throw new ConflictException(USER_ID_TAKEN);
      }
      const verified = form.verified ?? current.verified;
      const after = verified !== current.verified ? (await this.userRows.setVerified(tx, user.id, verified))! : (await this.userRows.findById(tx, user.id))!;
      if (verified !== current.verified && verified !== 0) {
        await this.outbox.add(tx, userVerified, { id: Number(after.id), user_id: after.user_id, verified });
      }
      if ((verified !== current.verified && verified === 0) || userId !== current.user_id || location !== current.location) {
        await this.outbox.add(tx, userUpdated, { user: profileSnapshot(after) });
      }
      if (form.is_active === undefined) return [];
      await this.lists.setActive(tx, user.id, form.is_active);
      // Switched off, the account is signed out everywhere at once, and sign-in refuses it (AccountsService).
      return form.is_active ? [] : this.sessions.revokeAll('user', user.id, null, tx);
    });
    await this.sessions.announce(revoked);
    return toAdminUser((await this.lists.user(this.dataSource.manager, user.id))!);
  }

  /** The account goes as if its owner deleted it: sessions revoked, user.deleted for every other service. */
  async remove(id: number): Promise<void> {
    await this.users.deleteAccount(await this.require(id));
  }

  async removeMany(ids: number[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      const user = await this.userRows.findById(this.dataSource.manager, String(id));
      if (!user) continue;
      await this.users.deleteAccount(user);
      deletedCount += 1;
    }
    return { deletedCount };
  }

  private async require(id: number): Promise<UserRow> {
    const user = await this.userRows.findById(this.dataSource.manager, String(id));
    if (!user) throw new NotFoundException('用户不存在');
    return user;
  }
}
