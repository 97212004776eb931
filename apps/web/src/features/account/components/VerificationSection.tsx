import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../../components/Modal';
import { VerifiedBadge } from '../../../components/Icon';
import { ApiError } from '../../../lib/api/client';
import { toast } from '../../../lib/toast';
import { accountKeys, applyForVerification, revokeVerification, verificationStatusQuery } from '../api/verification';
import { shownApplication, VERIFICATION_FIELDS, VERIFICATION_STATUS, VERIFICATION_TYPES, verificationContent, verificationErrors, type VerificationType } from '../verification-form';

/**
 * Applying for a verification badge (public-side.md §4): while an application exists only its status and a revoke
 * action show; after revoking the form comes back. The service lists every application; the spec's precedence picks
 * the one shown.
 */
export function VerificationSection() {
  const client = useQueryClient();
  const status = useQuery(verificationStatusQuery());
  const [type, setType] = useState<VerificationType>(2);
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = verificationErrors(type, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const shown = await applyForVerification(type, verificationContent(type, values));
      client.setQueryData(accountKeys.verification, [shown]);
      setValues({});
      toast.success('认证申请提交成功，请耐心等待审核');
    } catch (error) {
      toast.error(error instanceof ApiError ? (error.status === 0 ? '网络错误，请重试' : error.message || '提交失败，请重试') : '提交失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    setRevoking(false);
    try {
      await revokeVerification();
      client.setQueryData(accountKeys.verification, []);
      toast.success('认证申请已撤回');
    } catch (error) {
      toast.error(error instanceof ApiError && error.status === 0 ? '网络错误，请重试' : '撤回失败，请重试');
    }
  };

  if (status.isPending) return <div className="verify-card skeleton" aria-label="加载中" />;
  const application = shownApplication(status.data ?? []);
  if (application) {
    const label = VERIFICATION_TYPES.find(([value]) => value === application.type)?.[1];
    return (
      <div className={`verify-card status-${application.status}`} data-status={application.status}>
        <div className="verify-status">
          {application.status === 1 && <VerifiedBadge level={application.type} size={18} />}
          <b>{label}</b>
          <span className="verify-pill">{VERIFICATION_STATUS[application.status]}</span>
        </div>
        {application.status === 2 && application.reject_reason && <p className="verify-note">未通过原因：{application.reject_reason}</p>}
        {application.status === 0 && <p className="verify-note">申请已提交，审核结果会尽快通知你</p>}
        <button type="button" className="button ghost small" onClick={() => setRevoking(true)}>
          撤回申请
        </button>
        {revoking && <ConfirmDialog text={application.status === 1 ? '撤回后认证标识将被取消，确定撤回吗？' : '确定撤回认证申请吗？'} confirmLabel="撤回" onConfirm={() => void revoke()} onCancel={() => setRevoking(false)} />}
      </div>
    );
  }
  return (
    <form className="form verify-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="segmented" role="radiogroup" aria-label="认证类型">
        {VERIFICATION_TYPES.map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={type === value}
            className={type === value ? 'active' : ''}
            onClick={() => {
              setType(value);
              setErrors({});
            }}
          >
            {label}
          </button>
        ))}
      </div>
      {VERIFICATION_FIELDS[type].map((field) => {
        const value = values[field.name] ?? '';
        const change = (next: string) => setValues((before) => ({ ...before, [field.name]: next }));
        return (
          <label key={field.name} className={`field ${errors[field.name] ? 'invalid' : ''}`}>
            {field.multiline ? (
              <span className="counted">
                <textarea value={value} rows={3} maxLength={field.max} placeholder={field.label} aria-label={field.label} onChange={(event) => change(event.target.value)} />
                <em>
                  {[...value].length}/{field.max}
                </em>
              </span>
            ) : (
              <input value={value} maxLength={field.max} placeholder={field.label} aria-label={field.label} onChange={(event) => change(event.target.value)} autoComplete="off" />
            )}
            {errors[field.name] && <span className="field-error">{errors[field.name]}</span>}
          </label>
        );
      })}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? '提交中...' : '提交申请'}
      </button>
    </form>
  );
}
