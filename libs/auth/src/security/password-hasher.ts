import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';

// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** argon2id for every password, with OWASP's recommended parameters (19 MiB, 2 passes). */
@Injectable()
export class PasswordHasher {
  /** A hash of no one's password: an unknown account is checked against it, so it takes as long to refuse as a wrong password. */
  private readonly decoy = hash(randomBytes(16).toString('hex'), OPTIONS);

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  /** Answers false for a missing hash too, after the same amount of work. */
  async verify(passwordHash: string | null | undefined, password: string): Promise<boolean> {
    try {
      const matches = await verify(passwordHash ?? (await this.decoy), password);
      return matches && Boolean(passwordHash);
    } catch {
      return false;
    }
  }
}
