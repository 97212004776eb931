import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_SECRETS, type ServiceSecrets } from '@shiliu/platform';

const PREFIX = 'enc:v1:';

/** Encrypts personal data at rest (ID card and phone numbers) with AES-256-GCM under the service's data key. */
@Injectable()
export class FieldCipher {
  private readonly key: Buffer | null;

  constructor(@Inject(SERVICE_SECRETS) secrets: ServiceSecrets) {
    this.key = secrets.dataEncryptionKey ? Buffer.from(secrets.dataEncryptionKey, 'base64') : null;
    if (this.key && this.key.length !== 32) throw new Error('DATA_ENCRYPTION_KEY must be 32 bytes in base64');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.requireKey(), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  decrypt(stored: string): string {
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.requireKey(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  private requireKey(): Buffer {
    if (!this.key) throw new Error('DATA_ENCRYPTION_KEY is required by the auth service');
    return this.key;
  }
}

/** Keeps the first and last few characters: 110101********1234, 138****5678. */
export function mask(value: string, keepStart: number, keepEnd: number): string {
  if (value.length <= keepStart + keepEnd) return '*'.repeat(value.length);
  return value.slice(0, keepStart) + '*'.repeat(value.length - keepStart - keepEnd) + value.slice(value.length - keepEnd);
}
