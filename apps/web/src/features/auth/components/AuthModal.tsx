import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { ApiError } from '../../../lib/api/client';
import { checkUserId, login, registerUser } from '../api/auth';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { CaptchaDialog } from './CaptchaDialog';
import { validateSignIn, type SignInFields, type SignInErrors } from '../validation';

/** Login success reloads the page after this long (public-side.md §9). */
const RELOAD_MS = 1000;
const EMPTY: SignInFields = { user_id: '', nickname: '', password: '', confirm: '' };

/** The login / register modal; registration asks for the captcha once the fields are valid. */
export function AuthModal() {
  const close = () => useSession.getState().closeAuth();
  const [mode, setMode] = useState<'login' | 'register'>('login');
  const [fields, setFields] = useState<SignInFields>(EMPTY);
  const [errors, setErrors] = useState<SignInErrors>({});
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState(false);
  const checked = useRef(new Map<string, boolean>());

  const switchMode = () => {
    setMode(mode === 'login' ? 'register' : 'login');
    setFields(EMPTY);
    setErrors({});
  };

  const set = (key: keyof SignInFields) => (value: string) => {
    setFields((before) => ({ ...before, [key]: value }));
    setErrors((before) => ({ ...before, [key]: undefined }));
  };

  /** The product-ID uniqueness check (register only), remembered per ID. */
  const checkId = async (userId: string): Promise<boolean> => {
    const known = checked.current.get(userId);
    if (known !== undefined) return known;
    try {
      const { isUnique } = await checkUserId(userId);
      checked.current.set(userId, isUnique);
      return isUnique;
    } catch {
      return true;
    }
  };

  const onIdBlur = async () => {
    if (mode !== 'register' || validateSignIn('register', fields).user_id) return;
    if (!(await checkId(fields.user_id))) setErrors((before) => ({ ...before, user_id: '小石榴号已存在' }));
  };

  const succeed = (tokens: { access_token: string; refresh_token: string }, user: Parameters<ReturnType<typeof useSession.getState>['signIn']>[1], text: string) => {
    useSession.getState().signIn(tokens, user);
    toast.success(text);
    setTimeout(() => window.location.reload(), RELOAD_MS);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignIn(mode, fields);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (mode === 'register') {
      if (!(await checkId(fields.user_id))) {
        setErrors({ user_id: '小石榴号已存在' });
        return;
      }
      setCaptcha(true);
      return;
    }
    setBusy(true);
    try {
      const signed = await login(fields.user_id, fields.password);
      succeed(signed.tokens, signed.user, '登录成功');
    } catch (error) {
      toast.error(error instanceof ApiError && error.status !== 0 ? error.message || '登录失败' : '网络错误，请稍后重试');
      setBusy(false);
    }
  };

  /** Registration with the captcha's answer: answers whether the captcha should be refreshed. */
  const register = async (captchaId: string, captchaText: string): Promise<'done' | 'refresh' | 'failed'> => {
    try {
      const signed = await registerUser({ user_id: fields.user_id, nickname: fields.nickname, password: fields.password, captchaId, captchaText });
      setCaptcha(false);
      succeed(signed.tokens, signed.user, '注册成功');
      return 'done';
    } catch (error) {
      const message = error instanceof ApiError && error.status !== 0 ? error.message || '注册失败' : '网络错误，请稍后重试';
      if (/验证码/.test(message)) return 'refresh';
      setCaptcha(false);
      if (/已存在/.test(message)) setErrors({ user_id: message });
      else toast.error(message);
      return 'failed';
    }
  };

  return (
    <Modal onClose={close} width={400} className="auth-modal">
      <div className="auth-head">
        <span className="logo-mark large">拾柳</span>
        <p>{mode === 'login' ? '登录后发现更多校园精彩' : '注册拾柳，记录你的校园生活'}</p>
      </div>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="小石榴号" value={fields.user_id} onChange={set('user_id')} error={errors.user_id} maxLength={15} onBlur={() => void onIdBlur()} autoComplete="username" />
        {mode === 'register' && <TextField label="昵称" value={fields.nickname} onChange={set('nickname')} error={errors.nickname} maxLength={10} autoComplete="nickname" />}
        <TextField label="密码" type="password" value={fields.password} onChange={set('password')} error={errors.password} maxLength={20} autoComplete={mode === 'login' ? 'current-password' : 'new-password'} />
        {mode === 'register' && <TextField label="确认密码" type="password" value={fields.confirm} onChange={set('confirm')} error={errors.confirm} maxLength={20} autoComplete="new-password" />}
        <button type="submit" className="button primary block large" disabled={busy}>
          {mode === 'login' ? (busy ? '登录中...' : '登录') : '注册'}
        </button>
      </form>
      <p className="auth-switch">
        {mode === 'login' ? '还没有账号？' : '已有账号？'}
        <button type="button" className="text-button accent" onClick={switchMode}>
          {mode === 'login' ? '立即注册' : '去登录'}
        </button>
      </p>
      {captcha && <CaptchaDialog onSubmit={register} onClose={() => setCaptcha(false)} />}
    </Modal>
  );
}

function TextField({ label, error, onChange, ...input }: { label: string; value: string; error?: string; onChange: (value: string) => void; type?: string; maxLength?: number; onBlur?: () => void; autoComplete?: string }) {
  return (
    <label className={`field ${error ? 'invalid' : ''}`}>
      <input {...input} placeholder={label} aria-label={label} aria-invalid={Boolean(error)} onChange={(event) => onChange(event.target.value)} />
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

/** Opens the login modal when the store asks for it. */
export function AuthGate() {
  const open = useSession((state) => state.authModal);
  const user = useSession((state) => state.user);
  useEffect(() => {
    if (user) useSession.getState().closeAuth();
  }, [user]);
  return open && !user ? <AuthModal /> : null;
}
