/** §5 admin login rules: username required and at least 2 characters, password required and at least 6. */
export function validateAdminLogin(fields: { username: string; password: string }): { username?: string; password?: string } {
  const errors: { username?: string; password?: string } = {};
  const username = fields.username.trim();
  if (!username) errors.username = '请输入用户名';
  else if (username.length < 2) errors.username = '用户名至少需要2位';
  if (!fields.password) errors.password = '请输入密码';
  else if (fields.password.length < 6) errors.password = '密码至少需要6位';
  return errors;
}

/** Where a successful sign-in goes after its second (§2.4, §9): the page the guard turned away, else the API docs. */
export function afterLogin(redirect: string | null): string {
  return redirect && /^\/admin\/(?!login)[\w-]+/.test(redirect) ? redirect : '/admin/api-docs';
}

export const LOGIN_REDIRECT_MS = 1000;
