import { api, call, DEFAULT_AVATAR } from '../../../lib/api/client';

/** Whether a product ID (小石榴号) is still free. */
export function checkUserId(userId: string) {
  return call(api.GET('/api/auth/check-user-id', { params: { query: { user_id: userId } } }));
}

export function login(userId: string, password: string) {
  return call(api.POST('/api/auth/login', { body: { user_id: userId, password } }));
}

export interface Registration {
  user_id: string;
  nickname: string;
  password: string;
  captchaId: string;
  captchaText: string;
}

/** What a new user starts with (public-side.md §7): the product's default avatar, bio and location. */
export const NEW_USER_DEFAULTS = { avatar: DEFAULT_AVATAR, bio: '用户没有任何简介', location: '未知' } as const;

/** Registers with the captcha's answer and the defaults of a new user. */
export function registerUser(registration: Registration) {
  return call(api.POST('/api/auth/register', { body: { ...registration, ...NEW_USER_DEFAULTS } }));
}

export function fetchCaptcha() {
  return call(api.GET('/api/auth/captcha'));
}
