import { type ClipboardEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/Feedback';
import { Modal } from '../../../components/Modal';
import { fetchCaptcha } from '../api/auth';

const LENGTH = 4;

/** The captcha: four single-character boxes under the image; a click on the image or a captcha failure refreshes it. */
export function CaptchaDialog({ onSubmit, onClose }: { onSubmit: (captchaId: string, text: string) => Promise<'done' | 'refresh' | 'failed'>; onClose: () => void }) {
  const [captcha, setCaptcha] = useState<{ captchaId: string; captchaSvg: string } | null>(null);
  const [chars, setChars] = useState<string[]>(Array(LENGTH).fill(''));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  const refresh = useCallback(async () => {
    setChars(Array(LENGTH).fill(''));
    try {
      setCaptcha(await fetchCaptcha());
      boxes.current[0]?.focus();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : '获取验证码失败');
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const put = (index: number, value: string) => {
    const next = [...chars];
    next[index] = value.slice(-1);
    setChars(next);
    setError('');
    if (value && index < LENGTH - 1) boxes.current[index + 1]?.focus();
  };

  const onKey = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !chars[index] && index > 0) boxes.current[index - 1]?.focus();
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text').replace(/\s/g, '').slice(0, LENGTH);
    if (!text) return;
    event.preventDefault();
    setChars(Array.from({ length: LENGTH }, (_, index) => text[index] ?? ''));
    boxes.current[Math.min(text.length, LENGTH - 1)]?.focus();
  };

  const submit = async () => {
    const text = chars.join('');
    if (text.length < LENGTH || !captcha) {
      setError('请输入验证码');
      return;
    }
    setBusy(true);
    const result = await onSubmit(captcha.captchaId, text);
    setBusy(false);
    if (result === 'refresh') {
      setError('验证码错误，请重新输入');
      await refresh();
    }
  };

  return (
    <Modal title="请输入验证码" onClose={onClose} width={340} className="captcha">
      <button type="button" className="captcha-image" onClick={() => void refresh()} aria-label="看不清？换一张">
        {captcha ? <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(captcha.captchaSvg)}`} alt="验证码" /> : <Spinner />}
      </button>
      <p className="hint">看不清？点击图片换一张</p>
      <div className="captcha-boxes">
        {chars.map((char, index) => (
          <input
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            value={char}
            maxLength={2}
            aria-label={`验证码第${index + 1}位`}
            autoCapitalize="off"
            autoComplete="off"
            onChange={(event) => put(index, event.target.value)}
            onKeyDown={(event) => {
              onKey(index, event);
              if (event.key === 'Enter') void submit();
            }}
            onPaste={onPaste}
          />
        ))}
      </div>
      {error && <p className="field-error center">{error}</p>}
      <button type="button" className="button primary block large" disabled={busy} onClick={() => void submit()}>
        {busy ? '注册中...' : '确定'}
      </button>
    </Modal>
  );
}
