import { useToasts } from '../lib/toast';

/** The toasts of the moment, centred near the top. */
export function Toasts() {
  const toasts = useToasts((state) => state.toasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`}>
          {toast.text}
        </div>
      ))}
    </div>
  );
}
