import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Modal } from '../../components/Modal';
import { toast } from '../../lib/toast';
import { adminUpload, type AdminUploaded } from '../api';
import type { FormField, FormValues, Option } from './types';
import { validate, visibleFields } from './validate';

function Options({ field, children }: { field: FormField; children: (options: Option[]) => React.ReactNode }) {
  const loaded = useQuery({ queryKey: ['admin-options', field.key], queryFn: field.loadOptions!, enabled: !!field.loadOptions, staleTime: 60_000 });
  return <>{children(field.options ?? loaded.data ?? [])}</>;
}

function ListInput({ field, value, onChange }: { field: FormField; value: string[]; onChange: (value: string[]) => void }) {
  const [draft, setDraft] = useState('');
  const add = () => {
    const text = draft.trim();
    if (text && !value.includes(text)) onChange([...value, text]);
    setDraft('');
  };
  return (
    <div className="chips-input">
      {value.map((item) => (
        <span key={item} className="admin-chip">
          {item}
          <button type="button" aria-label={`移除${item}`} onClick={() => onChange(value.filter((other) => other !== item))}>
            ×
          </button>
        </span>
      ))}
      <input
        aria-label={`添加${field.label}`}
        value={draft}
        placeholder={field.max ? `回车添加，最多${field.max}个` : '回车添加'}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            add();
          }
        }}
        onBlur={add}
      />
    </div>
  );
}

/** A file picker that uploads what is chosen and hands over each stored file; the button reads 上传中… meanwhile. */
function UploadButton({ kind, label, multiple = false, disabled = false, onUploaded }: { kind: 'image' | 'video'; label: string; multiple?: boolean; disabled?: boolean; onUploaded: (uploaded: AdminUploaded) => void }) {
  const [busy, setBusy] = useState(false);
  const choose = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    try {
      for (const file of Array.from(files)) onUploaded(await adminUpload(kind, file));
    } catch (error) {
      toast.error(`上传失败：${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className={`button ghost small admin-upload${busy || disabled ? ' disabled' : ''}`}>
      {busy ? '上传中…' : label}
      <input
        type="file"
        hidden
        multiple={multiple}
        disabled={busy || disabled}
        accept={kind === 'image' ? 'image/jpeg,image/png,image/gif,image/webp' : 'video/mp4,video/x-msvideo,video/quicktime,.avi,.mov'}
        onChange={(event) => {
          void choose(event.target.files);
          event.target.value = '';
        }}
      />
    </label>
  );
}

/** Image addresses with thumbnails: uploaded from the administrator's computer or added by an address already stored. */
function ImagesInput({ field, value, onChange }: { field: FormField; value: string[]; onChange: (value: string[]) => void }) {
  const [draft, setDraft] = useState('');
  const max = field.max ?? 9;
  const add = () => {
    const url = draft.trim();
    if (url && !value.includes(url)) onChange([...value, url]);
    setDraft('');
  };
  // Several files upload one after another; each lands on the latest list, not the one the upload started from.
  const latest = useRef(value);
  latest.current = value;
  return (
    <div className="admin-images">
      {value.map((url) => (
        <div key={url} className="admin-image-item">
          <img src={url} alt="" onError={(event) => (event.currentTarget.src = '/placeholder.svg')} />
          <button type="button" aria-label="移除图片" onClick={() => onChange(value.filter((other) => other !== url))}>
            ×
          </button>
        </div>
      ))}
      {value.length < max && (
        <>
          <UploadButton
            kind="image"
            label="上传图片"
            multiple
            onUploaded={({ url }) => {
              if (latest.current.length >= max || latest.current.includes(url)) return;
              latest.current = [...latest.current, url];
              onChange(latest.current);
            }}
          />
          <input
            className="admin-image-url"
            aria-label={`添加${field.label}地址`}
            placeholder="或输入图片地址，回车添加"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
            onBlur={add}
          />
        </>
      )}
    </div>
  );
}

/** The create and edit form of one entity (§2.7 modal states), validated by the declaration's rules (§5). */
export function EntityForm({ title, fields, initial, mode, onSubmit, onClose }: { title: string; fields: FormField[]; initial: FormValues; mode: 'create' | 'edit'; onSubmit: (values: FormValues) => Promise<void>; onClose: () => void }) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set = (key: string, value: FormValues[string]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: '' }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(fields, values, mode);
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await onSubmit(values);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal title={title} onClose={onClose} width={560} className="admin-form-modal">
      <form className="admin-form" onSubmit={submit} noValidate>
        {visibleFields(fields, values, mode).map((field) => {
          const id = `admin-field-${field.key}`;
          const value = values[field.key];
          const disabled = mode === 'edit' && field.readOnlyOnEdit;
          let control: React.ReactNode;
          if (field.type === 'textarea' || field.type === 'json') control = <textarea id={id} rows={4} value={String(value ?? '')} disabled={disabled} placeholder={field.placeholder} onChange={(event) => set(field.key, event.target.value)} />;
          else if (field.type === 'select')
            control = (
              <Options field={field}>
                {(options) => (
                  <select id={id} value={String(value ?? '')} disabled={disabled} onChange={(event) => set(field.key, event.target.value)}>
                    <option value="">请选择</option>
                    {options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                )}
              </Options>
            );
          else if (field.type === 'radio')
            control = (
              <div className="segmented" role="radiogroup" aria-labelledby={`${id}-label`}>
                {(field.options ?? []).map((option) => (
                  <button key={option.value} type="button" role="radio" aria-checked={String(value) === option.value} className={String(value) === option.value ? 'active' : ''} disabled={disabled} onClick={() => set(field.key, option.value)}>
                    {option.label}
                  </button>
                ))}
              </div>
            );
          else if (field.type === 'boolean')
            control = (
              <label className="admin-switch">
                <input id={id} type="checkbox" checked={value === true} disabled={disabled} onChange={(event) => set(field.key, event.target.checked)} />
                <span>{value === true ? '是' : '否'}</span>
              </label>
            );
          else if (field.type === 'list') control = <ListInput field={field} value={(value as string[]) ?? []} onChange={(next) => set(field.key, next)} />;
          else if (field.type === 'images') control = <ImagesInput field={field} value={(value as string[]) ?? []} onChange={(next) => set(field.key, next)} />;
          else {
            control = (
              <input
                id={id}
                type={field.type === 'number' ? 'number' : field.type === 'password' ? 'password' : field.type === 'datetime' ? 'datetime-local' : 'text'}
                min={field.type === 'number' ? field.min : undefined}
                value={String(value ?? '')}
                disabled={disabled}
                placeholder={field.placeholder}
                autoComplete={field.type === 'password' ? 'new-password' : 'off'}
                onChange={(event) => set(field.key, event.target.value)}
              />
            );
            if (field.upload) {
              const kind = field.upload;
              control = (
                <div className="admin-upload-row">
                  {kind === 'image' && value ? <img className="admin-upload-preview" src={String(value)} alt="" onError={(event) => (event.currentTarget.src = '/placeholder.svg')} /> : null}
                  {control}
                  <UploadButton
                    kind={kind}
                    label={kind === 'image' ? '上传图片' : '上传视频'}
                    disabled={disabled}
                    onUploaded={({ url, coverUrl }) => {
                      set(field.key, url);
                      // A video's cover made from the upload fills the cover field when it is empty.
                      if (kind === 'video' && coverUrl && !values.cover_url) set('cover_url', coverUrl);
                    }}
                  />
                </div>
              );
            }
          }
          return (
            <div key={field.key} className={`field admin-field${errors[field.key] ? ' invalid' : ''}`}>
              <label id={`${id}-label`} htmlFor={id} className="field-label">
                {field.label}
                {field.required && !disabled && <span className="admin-required">*</span>}
              </label>
              {control}
              {errors[field.key] && <span className="field-error">{errors[field.key]}</span>}
            </div>
          );
        })}
        <div className="confirm-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            取消
          </button>
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? '保存中…' : '保存'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
