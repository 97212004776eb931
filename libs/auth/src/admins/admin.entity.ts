import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('admins')
export class AdminEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column()
  username!: string;

  @Column({ name: 'password_hash', select: false })
  passwordHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_login_at', type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;
}

export interface PublicAdmin {
  id: number;
  username: string;
  created_at: string;
  last_login_at: string | null;
}

export function publicAdmin(admin: AdminEntity): PublicAdmin {
  return {
    id: Number(admin.id),
    username: admin.username,
    created_at: admin.createdAt.toISOString(),
    last_login_at: admin.lastLoginAt?.toISOString() ?? null,
  };
}
