import { type RefObject, useEffect } from 'react';

/**
 * Focus for a dialog: it moves into `box` when the dialog opens and back to what had it when the dialog closes (or,
 * when that is gone, to `fallback()`), so that a keyboard or screen-reader user stays where they were.
 */
export function useDialogFocus(box: RefObject<HTMLElement | null>, fallback?: () => HTMLElement | null): void {
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    box.current?.focus({ preventScroll: true });
    return () => {
      const back = before?.isConnected ? before : fallback?.();
      back?.focus({ preventScroll: true });
    };
    // Once for the dialog's lifetime: focus is taken when it opens and given back when it closes.
  }, []);
}
