import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../lib/api/client';
import type { VerificationType } from '../verification-form';

/** The account feature's query keys. */
export const accountKeys = {
  verification: ['verification', 'status'] as const,
};

/** The viewer's verification applications. */
export function verificationStatusQuery() {
  return queryOptions({ queryKey: accountKeys.verification, queryFn: () => call(api.GET('/api/users/verification/status')) });
}

export function applyForVerification(type: VerificationType, content: Record<string, string>) {
  return call(api.POST('/api/users/verification', { body: { type, content } }));
}

export function revokeVerification() {
  return call(api.DELETE('/api/users/verification/revoke'));
}
