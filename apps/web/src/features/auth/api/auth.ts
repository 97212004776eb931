import { api, call } from '../../../lib/api/client';

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

/** Registers with the captcha's answer; a new user starts with the spec's default bio and location. */
export function registerUser(registration: Registration) {
  return call(api.POST('/api/auth/register', { body: { ...registration, bio: '用户没有任何简介', location: '未知' } }));
}

export function fetchCaptcha() {
  return call(api.GET('/api/auth/captcha'));
}
