import { adminTokenState } from './guard';
import { afterLogin, validateAdminLogin } from './login-rules';

const token = (claims: object) => `x.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.y`;
const now = Date.UTC(2026, 10, 22);
const future = now / 1000 + 3600;

describe('the console guard', () => {
  it('lets an administrator token in', () => {
    expect(adminTokenState(token({ aud: 'shiliu-admin', exp: future }), null, now)).toBe('ok');
  });
  it('turns away no token, a student token and garbage', () => {
    expect(adminTokenState(null, null, now)).toBe('none');
    expect(adminTokenState(token({ aud: 'shiliu-user', exp: future }), 'r', now)).toBe('foreign');
    expect(adminTokenState('not-a-jwt', null, now)).toBe('foreign');
  });
  it('calls an expired token expired unless a refresh token can renew it', () => {
    const old = token({ aud: 'shiliu-admin', exp: now / 1000 - 1 });
    expect(adminTokenState(old, null, now)).toBe('expired');
    expect(adminTokenState(old, 'refresh', now)).toBe('ok');
  });
});

describe('the admin login rules', () => {
  it('require a username of 2 and a password of 6 characters or more', () => {
    expect(validateAdminLogin({ username: '', password: '' })).toEqual({ username: '请输入用户名', password: '请输入密码' });
    expect(validateAdminLogin({ username: 'a', password: '12345' })).toEqual({ username: '用户名至少需要2位', password: '密码至少需要6位' });
    expect(validateAdminLogin({ username: 'ad', password: '123456' })).toEqual({});
  });
  it('go back to the page the guard turned away, else to the API docs', () => {
    expect(afterLogin('/admin/users')).toBe('/admin/users');
    expect(afterLogin(null)).toBe('/admin/api-docs');
    expect(afterLogin('/admin')).toBe('/admin/api-docs');
    expect(afterLogin('/admin/login')).toBe('/admin/api-docs');
    expect(afterLogin('https://evil.example/admin/x')).toBe('/admin/api-docs');
  });
});
