import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { userUpdated, userVerified } from '@shiliu/contracts';
import { BannedWords, Outbox } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { FieldCipher, mask } from '../security/field-cipher';
import { profileSnapshot } from '../users/public-user';
import { UserRepository } from '../users/user.repository';
import { contentRules, validContent } from './verification-content';
import { type ApplicationRow, VerificationRepository, type VerificationStatus, type VerificationType } from './verification.repository';

export interface ShownApplication {
  id: number;
  type: VerificationType;
  status: VerificationStatus;
  content: Record<string, string>;
  reject_reason: string | null;
  created_at: string;
  reviewed_at: string | null;
}

/** Verification applications: one at a time per user; personal numbers encrypted at rest and masked when shown. */
@Injectable()
export class VerificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly cipher: FieldCipher,
    private readonly applications: VerificationRepository,
    private readonly users: UserRepository,
    private readonly bannedWords: BannedWords,
  ) {}

  async submit(accountId: string, type: VerificationType, content: unknown): Promise<ShownApplication> {
    const fields = validContent(type, content);
    this.bannedWords.check(...Object.values(fields));
    return this.dataSource.transaction(async (tx) => {
      // Serialises two submissions from the same user, so only one application can be open.
      await this.users.lock(tx, accountId);
      if (await this.applications.anyOf(tx, accountId)) throw new ConflictException('您已提交过认证申请，请先撤回后再重新申请');
      const stored = { ...fields };
      for (const rule of contentRules[type]) if (rule.secret) stored[rule.name] = this.cipher.encrypt(fields[rule.name]);
      return this.show(await this.applications.insert(tx, accountId, type, stored));
    });
  }

  /** Every application of the user, newest first: the reader applies the spec's precedence (approved, rejected, pending). */
  async status(accountId: string): Promise<ShownApplication[]> {
    return (await this.applications.allOf(this.dataSource.manager, accountId)).map((application) => this.show(application));
  }

  /** Withdraws every application of the user; an approved one takes the badge with it. None to withdraw: 404. */
  async revoke(accountId: string): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const removed = await this.applications.deleteAllOf(tx, accountId);
      if (removed === 0) throw new NotFoundException('认证申请不存在');
      const user = await this.users.findById(tx, accountId);
      if (user && user.verified !== 0) {
        const unverified = await this.users.setVerified(tx, accountId, 0);
        if (unverified) await this.outbox.add(tx, userUpdated, { user: profileSnapshot(unverified) });
      }
      return removed;
    });
  }

  /** The administrator's decision (called by the admin audit API): the user becomes verified with the application's type. */
  async approve(applicationId: string): Promise<ShownApplication> {
    return this.dataSource.transaction(async (tx) => {
      const application = await this.applications.approve(tx, applicationId);
      if (!application) throw new NotFoundException('认证申请不存在');
      const user = await this.users.setVerified(tx, application.account_id, application.type);
      if (!user) throw new NotFoundException('用户不存在');
      await this.outbox.add(tx, userVerified, { id: Number(user.id), user_id: user.user_id, verified: application.type });
      return this.show(application);
    });
  }

  async reject(applicationId: string, reason: string | null): Promise<ShownApplication> {
    const application = await this.applications.reject(this.dataSource.manager, applicationId, reason);
    if (!application) throw new NotFoundException('认证申请不存在或已审核');
    return this.show(application);
  }

  /** An application as anyone may see it: ID card and phone numbers masked. */
  show(application: ApplicationRow): ShownApplication {
    const content = { ...application.content };
    for (const rule of contentRules[application.type]) {
      if (rule.secret && content[rule.name]) content[rule.name] = mask(this.cipher.decrypt(content[rule.name]), rule.secret.keepStart, rule.secret.keepEnd);
    }
    return {
      id: Number(application.id),
      type: application.type,
      status: application.status,
      content,
      reject_reason: application.reject_reason,
      created_at: application.created_at.toISOString(),
      reviewed_at: application.reviewed_at?.toISOString() ?? null,
    };
  }
}
