import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type VerificationType = 1 | 2;
/** 0 pending, 1 approved, 2 rejected. */
export type VerificationStatus = 0 | 1 | 2;

@Entity('verification_applications')
export class VerificationApplicationEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'account_id', type: 'bigint' })
  accountId!: string;

  @Column({ type: 'smallint' })
  type!: VerificationType;

  @Column({ type: 'smallint' })
  status!: VerificationStatus;

  /** The applicant's fields; ID card and phone numbers are stored encrypted. */
  @Column({ type: 'jsonb' })
  content!: Record<string, string>;

  @Column({ name: 'reject_reason', type: 'varchar', nullable: true })
  rejectReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true })
  reviewedAt!: Date | null;
}
