import { api, call } from '../../../lib/api/client';

export function changePassword(userId: string, currentPassword: string, newPassword: string) {
  return call(api.PUT('/api/users/{user_id}/password', { params: { path: { user_id: userId } }, body: { currentPassword, newPassword } }));
}

export function deleteAccount(userId: string) {
  return call(api.DELETE('/api/users/{user_id}', { params: { path: { user_id: userId } } }));
}
