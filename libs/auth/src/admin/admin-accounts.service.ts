import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { adminPage, type AdminListQuery, type AdminPage } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { AdminsService } from '../admins/admins.service';
import { ACCOUNT_DISABLED } from '../accounts/accounts.service';
import { SessionsService, type TokenPair } from '../sessions/sessions.service';
import type { AdminSessionRow } from './admin-lists.repository';
import { AdminListsRepository } from './admin-lists.repository';

/** admin-and-startup.md §3 "Session". */
export interface AdminSessionView {
  id: string;
  user_id: number;
  user_display_id: string;
  user_agent: string | null;
  is_active: boolean;
  expires_at: string;
  created_at: string;
}

const sessionView = (row: AdminSessionRow): AdminSessionView => ({
  id: row.id,
  user_id: Number(row.user_id),
  user_display_id: row.user_display_id,
  user_agent: row.user_agent,
  is_active: row.is_active,
  expires_at: row.expires_at.toISOString(),
  created_at: row.created_at.toISOString(),
});

/** admin-and-startup.md §3 "Admin" (never the password). */
export interface AdminAccountView {
  id: number;
  username: string;
  created_at: string;
  last_login_at: string | null;
}

/**
 * Students' sessions and administrator accounts in the back office. Ending a session is a revocation (its row
 * stays, so a restart announces it again while its tokens could live); accounts go through AdminsService.
 */
@Injectable()
export class AdminAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionsService,
    private readonly admins: AdminsService,
    private readonly lists: AdminListsRepository,
  ) {}

  async sessionList(query: AdminListQuery): Promise<AdminPage<AdminSessionView>> {
    const { rows, total } = await this.lists.sessions(this.dataSource.manager, query);
    return adminPage(rows.map(sessionView), query, total);
  }

  /**
   * A session opened for a user as their sign-in would open one, without their password: for trying the product
   * as a test user. It is listed and ended like any other, and the administrator's audit log records who made it.
   * A switched-off account gets none (403), as at sign-in.
   */
  async startSession(userReference: string, userAgent: string | undefined): Promise<{ session: AdminSessionView; tokens: TokenPair }> {
    const user = await this.lists.userByReference(this.dataSource.manager, userReference);
    if (!user) throw new NotFoundException('用户不存在');
    if (!user.is_active) throw new ForbiddenException(ACCOUNT_DISABLED);
    const { sessionId, tokens } = await this.dataSource.transaction((manager) =>
      this.sessions.openSession({ audience: 'user', subjectId: user.id, name: user.user_id }, { userAgent: userAgent ?? '管理后台创建' }, manager),
    );
    return { session: sessionView((await this.lists.session(this.dataSource.manager, sessionId))!), tokens };
  }

  async endSession(id: string): Promise<void> {
    const session = await this.lists.userSession(this.dataSource.manager, id);
    if (!session) throw new NotFoundException('会话不存在');
    await this.sessions.revoke(session.id);
  }

  async endSessions(ids: string[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      const session = await this.lists.userSession(this.dataSource.manager, id);
      if (!session) continue;
      await this.sessions.revoke(session.id);
      deletedCount += 1;
    }
    return { deletedCount };
  }

  async adminList(query: AdminListQuery): Promise<AdminPage<AdminAccountView>> {
    const { rows, total } = await this.lists.admins(this.dataSource.manager, query);
    return adminPage(
      rows.map((row) => ({ id: Number(row.id), username: row.username, created_at: row.created_at.toISOString(), last_login_at: row.last_login_at?.toISOString() ?? null })),
      query,
      total,
    );
  }

  async removeAdmins(ids: number[], actingAdminId: string): Promise<{ deletedCount: number }> {
    for (const id of ids) await this.admins.remove(String(id), actingAdminId);
    return { deletedCount: ids.length };
  }
}
