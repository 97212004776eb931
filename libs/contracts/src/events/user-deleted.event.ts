import { defineEvent } from './event-definition';

export interface UserDeletedPayload {
  id: number;
  user_id: string;
}

export const userDeleted = defineEvent<UserDeletedPayload>({ type: 'user.deleted', version: 1, topic: 'shiliu.user', key: (p) => String(p.id) });
