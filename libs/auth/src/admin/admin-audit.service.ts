import { Injectable, NotFoundException } from '@nestjs/common';
import { userUpdated } from '@shiliu/contracts';
import { adminPage, type AdminListQuery, type AdminPage, Outbox } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { profileSnapshot } from '../users/public-user';
import { UserRepository, type UserRow } from '../users/user.repository';
import { type ShownApplication, VerificationService } from '../verification/verification.service';
import type { AdminUpdateApplicationDto } from './admin.dto';
import { type AdminApplicationRow, AdminListsRepository } from './admin-lists.repository';

/** admin-and-startup.md §3 "Verification application (audit)"; personal numbers stay masked. */
export interface AuditView extends ShownApplication {
  user_id: number;
  user_display_id: string;
  nickname: string;
  audit_time: string | null;
}

/**
 * Verification review. Approving is VerificationService's own decision (user.verified reaches every service's
 * badge); anything that takes an approval back (rejecting, deleting, setting it pending) sends the user without
 * the badge as user.updated, as a student withdrawing their application does.
 */
@Injectable()
export class AdminAuditService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly verification: VerificationService,
    private readonly users: UserRepository,
    private readonly lists: AdminListsRepository,
  ) {}

  async list(query: AdminListQuery): Promise<AdminPage<AuditView>> {
    const { rows, total } = await this.lists.applications(this.dataSource.manager, query);
    return adminPage(rows.map((row) => this.view(row)), query, total);
  }

  async create(userId: string, type: 1 | 2, content: unknown): Promise<AuditView> {
    const user = await this.userOf(userId);
    const shown = await this.verification.submit(user.id, type, content);
    return { ...shown, user_id: Number(user.id), user_display_id: user.user_id, nickname: user.nickname, audit_time: null };
  }

  async approve(id: number): Promise<AuditView> {
    await this.verification.approve(String(id));
    return this.one(id);
  }

  /** The spec's screen sends no reason (DESIGN.md §4): a reject without one keeps the reason empty. */
  async reject(id: number, reason: string | undefined): Promise<AuditView> {
    await this.verification.reject(String(id), reason || null);
    return this.one(id);
  }

  /** The edit form's status: 1 approves; 2 (with or without a reason) and 0 take an approval back. */
  async update(id: number, form: AdminUpdateApplicationDto): Promise<AuditView> {
    if (form.status === 1) return this.approve(id);
    await this.dataSource.transaction(async (tx) => {
      const application = await this.lists.applicationOf(tx, String(id));
      if (!application) throw new NotFoundException('认证申请不存在');
      await this.users.lock(tx, application.account_id);
      await this.lists.setApplicationStatus(tx, String(id), form.status, form.status === 2 ? form.reject_reason || null : null);
      if (application.status === 1) await this.dropBadge(tx, application.account_id);
    });
    return this.one(id);
  }

  async remove(id: number): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const application = await this.lists.applicationOf(tx, String(id));
      if (!application) throw new NotFoundException('认证申请不存在');
      await this.users.lock(tx, application.account_id);
      await this.lists.deleteApplication(tx, String(id));
      if (application.status === 1) await this.dropBadge(tx, application.account_id);
    });
  }

  async removeMany(ids: number[]): Promise<{ deletedCount: number }> {
    let deletedCount = 0;
    for (const id of ids) {
      try {
        await this.remove(id);
        deletedCount += 1;
      } catch (error) {
        if (!(error instanceof NotFoundException)) throw error;
      }
    }
    return { deletedCount };
  }

  private async dropBadge(tx: EntityManager, accountId: string): Promise<void> {
    const user = await this.users.findById(tx, accountId);
    if (!user || user.verified === 0) return;
    const unverified = await this.users.setVerified(tx, accountId, 0);
    if (unverified) await this.outbox.add(tx, userUpdated, { user: profileSnapshot(unverified) });
  }

  private async one(id: number): Promise<AuditView> {
    const application = await this.lists.applicationOf(this.dataSource.manager, String(id));
    if (!application) throw new NotFoundException('认证申请不存在');
    const user = (await this.users.findById(this.dataSource.manager, application.account_id))!;
    return this.view({ ...application, user_display_id: user.user_id, nickname: user.nickname });
  }

  private view(row: AdminApplicationRow): AuditView {
    const shown = this.verification.show(row);
    return { ...shown, user_id: Number(row.account_id), user_display_id: row.user_display_id, nickname: row.nickname, audit_time: shown.reviewed_at };
  }

  private async userOf(userId: string): Promise<UserRow> {
    // The product ID first: it may be all digits, and then it is what the form meant.
    const byUserId = await this.users.findByUserId(this.dataSource.manager, userId);
    const found = byUserId ?? (/^\d{1,15}$/.test(userId) ? await this.users.findById(this.dataSource.manager, userId) : null);
    if (!found) throw new NotFoundException('用户不存在');
    return found;
  }
}
