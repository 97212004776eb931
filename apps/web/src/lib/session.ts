import { create } from 'zustand';
import type { PublicUser } from './api/types';

export type ThemeMode = 'system' | 'light' | 'dark';

/** The spec's local-storage keys (public-side.md §3). */
export const STORAGE = { token: 'token', refreshToken: 'refreshToken', user: 'userInfo', theme: 'theme', themeColor: 'theme-color' } as const;
export const DEFAULT_THEME_COLOR = '#ff2442';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode without storage: the session lives only in memory.
  }
}

function storedUser(): PublicUser | null {
  const raw = read(STORAGE.user);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PublicUser;
  } catch {
    return null;
  }
}

function storedTheme(): ThemeMode {
  const value = read(STORAGE.theme);
  return value === 'light' || value === 'dark' ? value : 'system';
}

interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: PublicUser | null;
  theme: ThemeMode;
  themeColor: string;
  unread: number;
  /** Which modal of the sign-in flow is open, if any. */
  authModal: boolean;
  signIn(tokens: { access_token: string; refresh_token: string }, user: PublicUser): void;
  setTokens(tokens: { access_token: string; refresh_token: string }): void;
  setUser(user: PublicUser): void;
  signOut(): void;
  setTheme(theme: ThemeMode): void;
  setThemeColor(color: string): void;
  setUnread(count: number): void;
  openAuth(): void;
  closeAuth(): void;
}

/** The only global client state: session, theme and the unread count (server data lives in TanStack Query). */
export const useSession = create<SessionState>((set) => ({
  token: read(STORAGE.token),
  refreshToken: read(STORAGE.refreshToken),
  user: storedUser(),
  theme: storedTheme(),
  themeColor: read(STORAGE.themeColor) ?? DEFAULT_THEME_COLOR,
  unread: 0,
  authModal: false,
  signIn(tokens, user) {
    write(STORAGE.token, tokens.access_token);
    write(STORAGE.refreshToken, tokens.refresh_token);
    write(STORAGE.user, JSON.stringify(user));
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token, user });
  },
  setTokens(tokens) {
    write(STORAGE.token, tokens.access_token);
    write(STORAGE.refreshToken, tokens.refresh_token);
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token });
  },
  setUser(user) {
    write(STORAGE.user, JSON.stringify(user));
    set({ user });
  },
  signOut() {
    write(STORAGE.token, null);
    write(STORAGE.refreshToken, null);
    write(STORAGE.user, null);
    set({ token: null, refreshToken: null, user: null, unread: 0 });
  },
  setTheme(theme) {
    write(STORAGE.theme, theme);
    set({ theme });
  },
  setThemeColor(themeColor) {
    write(STORAGE.themeColor, themeColor);
    set({ themeColor });
  },
  setUnread(unread) {
    set({ unread });
  },
  openAuth() {
    set({ authModal: true });
  },
  closeAuth() {
    set({ authModal: false });
  },
}));

