import { type FormEvent, useState } from 'react';
import { ConfirmDialog, Modal } from '../../../components/Modal';
import { changePassword, deleteAccount } from '../api/account';
import { endSession } from '../../../hooks/useSessionStart';
import { ApiError } from '../../../lib/api/client';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { VerificationSection } from './VerificationSection';

const DELETE_WARNING = '注销账号将永久删除您的所有数据，包括发布的内容、评论、收藏等，此操作不可恢复。确定要继续吗？';

/** Account and security: verification application, change password and delete the account (public-side.md §2 modals, §5, §8). */
export function AccountModal({ onClose }: { onClose: () => void }) {
  const user = useSession((state) => state.user);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (!user) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!current) found.current = '请输入当前密码';
    if (!next) found.next = '请输入新密码';
    else if (next.length < 6) found.next = '新密码至少需要6位';
    if (!again) found.again = '请确认新密码';
    else if (again !== next) found.again = '两次输入的新密码不一致';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await changePassword(user.user_id, current, next);
      // The student signs in again with the new password, right where they are.
      onClose();
      await endSession();
      toast.success('密码已修改，请重新登录');
      useSession.getState().openAuth();
    } catch (error) {
      // The server's meaning, in the spec's words; "新密码不能与当前密码相同" also names the current password, so it goes first.
      const message = error instanceof ApiError && error.status > 0 ? error.message : '';
      if (/相同/.test(message)) setErrors({ next: '新密码不能与当前密码相同' });
      else if (/当前密码|原密码/.test(message)) {
        setErrors({ current: '当前密码输入错误，请检查后重新输入' });
        setCurrent('');
      } else toast.error('密码修改失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirming(false);
    try {
      await deleteAccount(user.user_id);
      useSession.getState().signOut();
      window.location.assign('/explore');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : '操作失败，请重试');
    }
  };

  return (
    <Modal title="账号与安全" onClose={onClose} width={460}>
      <section className="account-section">
        <h3 className="form-section">申请认证</h3>
        <VerificationSection />
      </section>
      <form className="form account-section" onSubmit={(event) => void submit(event)} noValidate>
        <h3 className="form-section">修改密码</h3>
        <Field label="当前密码" value={current} onChange={setCurrent} error={errors.current} />
        <Field label="新密码" value={next} onChange={setNext} error={errors.next} />
        <Field label="确认新密码" value={again} onChange={setAgain} error={errors.again} />
        <button type="submit" className="button primary block" disabled={busy}>
          {busy ? '提交中...' : '修改密码'}
        </button>
      </form>
      <div className="danger-zone">
        <h3 className="form-section">注销账号</h3>
        <button type="button" className="button danger block" onClick={() => setConfirming(true)}>
          注销账号
        </button>
      </div>
      {confirming && <ConfirmDialog text={DELETE_WARNING} confirmLabel="注销" onConfirm={() => void remove()} onCancel={() => setConfirming(false)} />}
    </Modal>
  );
}

function Field({ label, value, onChange, error }: { label: string; value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <label className={`field ${error ? 'invalid' : ''}`}>
      <input type="password" value={value} maxLength={20} placeholder={label} aria-label={label} onChange={(event) => onChange(event.target.value)} autoComplete="off" />
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}
