import { useEffect } from 'react';
import { create } from 'zustand';

export type ToastKind = 'success' | 'error' | 'info';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

interface ToastState {
  toasts: Toast[];
  /** How long a toast shows: the default, or the longer one a page asks for while it is open. */
  duration: number;
  push(kind: ToastKind, text: string): void;
  dismiss(id: number): void;
}

/** Toast default duration, and the notifications page's (public-side.md §9). */
export const TOAST_MS = 2000;
export const NOTIFICATIONS_TOAST_MS = 3000;
let next = 1;

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  duration: TOAST_MS,
  push(kind, text) {
    const id = next++;
    set({ toasts: [...get().toasts.filter((toast) => toast.text !== text), { id, kind, text }] });
    setTimeout(() => get().dismiss(id), get().duration);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
  },
}));

/** Every toast shown while the calling page is open lasts `ms`, whichever part of the page raised it. */
export function useToastDuration(ms: number): void {
  useEffect(() => {
    useToasts.setState({ duration: ms });
    return () => useToasts.setState({ duration: TOAST_MS });
  }, [ms]);
}

export const toast = {
  success: (text: string) => useToasts.getState().push('success', text),
  error: (text: string) => useToasts.getState().push('error', text),
  info: (text: string) => useToasts.getState().push('info', text),
};
