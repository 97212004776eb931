import { type ReactNode, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useDialogFocus } from '../hooks/useDialogFocus';
import { Icon } from './Icon';

/** A dialog over a dimmed backdrop: Escape and a backdrop click close it, focus moves into it and back out. */
export function Modal({ title, onClose, children, width = 420, className = '' }: { title?: string; onClose: () => void; children: ReactNode; width?: number; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useDialogFocus(box);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close.current();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  return createPortal(
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={box} className={`modal ${className}`} style={{ maxWidth: width }} role="dialog" aria-modal="true" aria-label={title} tabIndex={-1}>
        <button type="button" className="modal-close icon-button" aria-label="关闭" onClick={onClose}>
          <Icon name="close" size={20} />
        </button>
        {title && <h2 className="modal-title">{title}</h2>}
        {children}
      </div>
    </div>,
    document.body,
  );
}

/** A yes/no question (the spec's confirm dialog). */
export function ConfirmDialog({ text, confirmLabel = '确定', onConfirm, onCancel }: { text: string; confirmLabel?: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Modal onClose={onCancel} width={340} className="confirm">
      <p className="confirm-text">{text}</p>
      <div className="confirm-actions">
        <button type="button" className="button ghost" onClick={onCancel}>
          取消
        </button>
        <button type="button" className="button primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
