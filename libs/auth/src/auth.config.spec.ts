import { loadAuthConfig } from './auth.config';

describe('loadAuthConfig', () => {
  it('accepts a captcha test answer outside production', () => {
    expect(loadAuthConfig({ NODE_ENV: 'test', AUTH_CAPTCHA_TEST_ANSWER: 'abcd' }).AUTH_CAPTCHA_TEST_ANSWER).toBe('abcd');
  });

  it('refuses to start with a captcha test answer in production', () => {
    expect(() => loadAuthConfig({ NODE_ENV: 'production', AUTH_CAPTCHA_TEST_ANSWER: 'abcd' })).toThrow('AUTH_CAPTCHA_TEST_ANSWER must not be set when NODE_ENV=production');
  });

  it('treats an empty ADMIN_PASSWORD as absent and refuses a short one', () => {
    expect(loadAuthConfig({ ADMIN_PASSWORD: '' }).ADMIN_PASSWORD).toBeUndefined();
    expect(() => loadAuthConfig({ ADMIN_PASSWORD: '123' })).toThrow('ADMIN_PASSWORD');
  });

  it('has limits that let a campus behind one NAT address sign up and sign in on the first day of term', () => {
    const config = loadAuthConfig({});
    expect(config.AUTH_REGISTER_PER_IP_PER_HOUR).toBeGreaterThanOrEqual(1000);
    expect(config.AUTH_LOGIN_PER_IP_PER_MINUTE).toBeGreaterThanOrEqual(300);
    expect(loadAuthConfig({ AUTH_REGISTER_PER_IP_PER_HOUR: '50' }).AUTH_REGISTER_PER_IP_PER_HOUR).toBe(50);
    expect(() => loadAuthConfig({ AUTH_LOGIN_FAILURES_BEFORE_CAPTCHA: '0' })).toThrow('AUTH_LOGIN_FAILURES_BEFORE_CAPTCHA');
  });
});
