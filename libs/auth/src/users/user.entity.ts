import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A student's account and profile. `id` is internal; `user_id` is the public product ID (小石榴号). */
@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'user_id' })
  userId!: string;

  @Column()
  nickname!: string;

  @Column({ name: 'password_hash', select: false })
  passwordHash!: string;

  @Column()
  avatar!: string;

  @Column()
  bio!: string;

  @Column()
  location!: string;

  @Column({ type: 'smallint' })
  verified!: 0 | 1 | 2;

  @Column({ type: 'varchar', nullable: true })
  gender!: string | null;

  @Column({ name: 'zodiac_sign', type: 'varchar', nullable: true })
  zodiacSign!: string | null;

  @Column({ type: 'varchar', nullable: true })
  mbti!: string | null;

  @Column({ type: 'varchar', nullable: true })
  education!: string | null;

  @Column({ type: 'varchar', nullable: true })
  major!: string | null;

  @Column({ type: 'jsonb' })
  interests!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
