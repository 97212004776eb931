import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { userUpdated, userVerified } from '@shiliu/contracts';
import { Outbox } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { FieldCipher, mask } from '../security/field-cipher';
import { profileSnapshot } from '../users/public-user';
import { UserEntity } from '../users/user.entity';
import { contentRules, validContent } from './verification-content';
import { VerificationApplicationEntity, type VerificationStatus, type VerificationType } from './verification-application.entity';

export interface ShownApplication {
  id: number;
  type: VerificationType;
  status: VerificationStatus;
  content: Record<string, string>;
  reject_reason: string | null;
  created_at: string;
  reviewed_at: string | null;
}

/** Which application the user sees when there are several: approved, then rejected, then pending. */
const PRECEDENCE: VerificationStatus[] = [1, 2, 0];

/** Verification applications: one at a time per user; personal numbers encrypted at rest and masked when shown. */
@Injectable()
export class VerificationService {
  constructor(private readonly dataSource: DataSource, private readonly outbox: Outbox, private readonly cipher: FieldCipher) {}

  async submit(accountId: string, type: VerificationType, content: unknown): Promise<ShownApplication> {
    const fields = validContent(type, content);
    return this.dataSource.transaction(async (tx) => {
      // Serialises two submissions from the same user, so only one application can be open.
      await tx.query(`SELECT 1 FROM "users" WHERE "id" = $1 FOR UPDATE`, [accountId]);
      const repository = tx.getRepository(VerificationApplicationEntity);
      if (await repository.existsBy({ accountId })) throw new ConflictException('您已提交过认证申请，请先撤回后再重新申请');
      const stored = { ...fields };
      for (const rule of contentRules[type]) if (rule.secret) stored[rule.name] = this.cipher.encrypt(fields[rule.name]);
      const application = repository.create({ accountId, type, status: 0, content: stored, rejectReason: null, reviewedAt: null });
      await repository.insert(application);
      return this.show(await repository.findOneByOrFail({ id: application.id }));
    });
  }

  async status(accountId: string): Promise<ShownApplication | null> {
    const applications = await this.dataSource.getRepository(VerificationApplicationEntity).findBy({ accountId });
    const chosen = PRECEDENCE.map((status) => applications.find((a) => a.status === status)).find(Boolean);
    return chosen ? this.show(chosen) : null;
  }

  /** Withdraws every application of the user; an approved one takes the badge with it. */
  async revoke(accountId: string): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      const removed = await tx.getRepository(VerificationApplicationEntity).delete({ accountId });
      const users = tx.getRepository(UserEntity);
      const user = await users.findOneBy({ id: accountId });
      if (user && user.verified !== 0) {
        await users.update({ id: accountId }, { verified: 0 });
        await this.outbox.add(tx, userUpdated, { user: profileSnapshot({ ...user, verified: 0 }) });
      }
      return removed.affected ?? 0;
    });
  }

  /** The administrator's decision (called by the admin audit API): the user becomes verified with the application's type. */
  async approve(applicationId: string): Promise<ShownApplication> {
    return this.dataSource.transaction(async (tx) => {
      const repository = tx.getRepository(VerificationApplicationEntity);
      const application = await repository.findOneBy({ id: applicationId });
      if (!application) throw new NotFoundException('认证申请不存在');
      await repository.update({ id: applicationId }, { status: 1, rejectReason: null, reviewedAt: new Date() });
      const users = tx.getRepository(UserEntity);
      await users.update({ id: application.accountId }, { verified: application.type });
      const user = await users.findOneByOrFail({ id: application.accountId });
      await this.outbox.add(tx, userVerified, { id: Number(user.id), user_id: user.userId, verified: application.type });
      return this.show(await repository.findOneByOrFail({ id: applicationId }));
    });
  }

  async reject(applicationId: string, reason: string): Promise<ShownApplication> {
    const repository = this.dataSource.getRepository(VerificationApplicationEntity);
    const result = await repository.update({ id: applicationId, status: 0 }, { status: 2, rejectReason: reason, reviewedAt: new Date() });
    if (!result.affected) throw new NotFoundException('认证申请不存在或已审核');
    return this.show(await repository.findOneByOrFail({ id: applicationId }));
  }

  private show(application: VerificationApplicationEntity): ShownApplication {
    const content = { ...application.content };
    for (const rule of contentRules[application.type]) {
      if (rule.secret && content[rule.name]) content[rule.name] = mask(this.cipher.decrypt(content[rule.name]), rule.secret.keepStart, rule.secret.keepEnd);
    }
    return {
      id: Number(application.id),
      type: application.type,
      status: application.status,
      content,
      reject_reason: application.rejectReason,
      created_at: application.createdAt.toISOString(),
      reviewed_at: application.reviewedAt?.toISOString() ?? null,
    };
  }
}
