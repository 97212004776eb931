import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CaptchaDialog } from '../features/auth/components/CaptchaDialog';
import { ApiError } from '../lib/api/client';
import { toast } from '../lib/toast';
import { adminApi, adminTyped } from './api';
import { afterLogin, LOGIN_REDIRECT_MS, validateAdminLogin } from './login-rules';
import { useAdminSession } from './session';

/** The administrator's sign-in screen (admin-and-startup.md §2.4, §5, §8). */
export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const signIn = useAdminSession((state) => state.signIn);
  const [fields, setFields] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [captcha, setCaptcha] = useState(false);
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    document.title = '管理员登录 - 拾柳校园图文社区';
  }, []);

  /** One attempt; answers what the captcha dialog should do when it asked. */
  const attempt = async (captchaId?: string, captchaText?: string): Promise<'done' | 'refresh' | 'failed'> => {
    setBusy(true);
    try {
      const answer = await adminTyped(adminApi.POST('/api/auth/admin/login', { body: { username: fields.username.trim(), password: fields.password, captchaId, captchaText } }));
      signIn(answer.tokens, answer.admin);
      setCaptcha(false);
      setDone(true);
      toast.success('登录成功，正在跳转...');
      timer.current = window.setTimeout(() => navigate(afterLogin(params.get('redirect')), { replace: true }), LOGIN_REDIRECT_MS);
      return 'done';
    } catch (error) {
      setBusy(false);
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 400 && /验证码/.test((error as Error).message)) {
        if (captchaId) return 'refresh';
        setCaptcha(true);
        return 'failed';
      }
      setCaptcha(false);
      toast.error(status === 401 ? '登录失败，请检查用户名和密码' : status === 429 ? (error as Error).message : '登录失败，请稍后重试');
      return 'failed';
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateAdminLogin(fields);
    setErrors(found);
    if (!Object.keys(found).length) void attempt();
  };
  const set = (key: 'username' | 'password') => (event: React.ChangeEvent<HTMLInputElement>) => {
    setFields({ ...fields, [key]: event.target.value });
    setErrors({ ...errors, [key]: undefined });
  };

  return (
    <main className="admin-login">
      <form className="admin-login-card" onSubmit={submit} noValidate>
        <div className="admin-login-brand">
          <span className="logo-mark large">拾柳</span>
          <span className="admin-login-badge">管理后台</span>
        </div>
        <p className="admin-login-sub">校园图文社区 · 管理员登录</p>
        <div className={`field admin-field${errors.username ? ' invalid' : ''}`}>
          <label htmlFor="admin-username" className="field-label">
            用户名
          </label>
          <input id="admin-username" value={fields.username} onChange={set('username')} autoComplete="username" placeholder="请输入用户名" maxLength={50} autoFocus />
          {errors.username && <span className="field-error">{errors.username}</span>}
        </div>
        <div className={`field admin-field${errors.password ? ' invalid' : ''}`}>
          <label htmlFor="admin-password" className="field-label">
            密码
          </label>
          <input id="admin-password" type="password" value={fields.password} onChange={set('password')} autoComplete="current-password" placeholder="请输入密码" maxLength={100} />
          {errors.password && <span className="field-error">{errors.password}</span>}
        </div>
        <button type="submit" className="button primary large block" disabled={busy || done}>
          {done ? '登录成功' : busy ? '登录中...' : '登录'}
        </button>
        <Link to="/explore" className="admin-login-back">
          返回主站
        </Link>
      </form>
      {captcha && <CaptchaDialog onSubmit={attempt} onClose={() => setCaptcha(false)} />}
    </main>
  );
}
