import { defineEvent } from './event-definition';

export interface UserVerifiedPayload {
  id: number;
  user_id: string;
  verified: 1 | 2;
}

export const userVerified = defineEvent<UserVerifiedPayload>({ type: 'user.verified', version: 1, topic: 'shiliu.user', key: (p) => String(p.id) });
