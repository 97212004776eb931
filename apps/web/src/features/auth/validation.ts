export interface SignInFields {
  user_id: string;
  nickname: string;
  password: string;
  confirm: string;
}
export type SignInErrors = Partial<Record<keyof SignInFields, string>>;

/** The field rules of login and register (public-side.md §5), with their messages. */
export function validateSignIn(mode: 'login' | 'register', fields: SignInFields): SignInErrors {
  const errors: SignInErrors = {};
  const id = fields.user_id.trim();
  if (!id) errors.user_id = '请输入小石榴号';
  else if (mode === 'register' && (id.length < 3 || id.length > 15)) errors.user_id = '小石榴号长度为3-15个字符';
  else if (mode === 'register' && !/^\w+$/.test(id)) errors.user_id = '小石榴号只能包含字母、数字和下划线';
  if (mode === 'register') {
    const nickname = fields.nickname.trim();
    if (!nickname) errors.nickname = '请输入昵称';
    else if (nickname.length < 2 || nickname.length > 10) errors.nickname = '昵称长度为2-10个字符';
  }
  if (!fields.password) errors.password = '请输入密码';
  else if (mode === 'register' && fields.password.length < 6) errors.password = '密码至少需要6位';
  if (mode === 'register') {
    if (!fields.confirm) errors.confirm = '请确认密码';
    else if (fields.confirm !== fields.password) errors.confirm = '两次输入的密码不一致';
  }
  return errors;
}
