import { create } from 'zustand';
import type { PublicUser } from './api/types';
import { readStored, readStoredJson, writeStored } from './storage';

export type ThemeMode = 'system' | 'light' | 'dark';

/** The spec's local-storage keys (public-side.md §3). */
export const STORAGE = { token: 'token', refreshToken: 'refreshToken', user: 'userInfo', theme: 'theme', themeColor: 'theme-color' } as const;
export const DEFAULT_THEME_COLOR = '#ff2442';

function storedTheme(): ThemeMode {
  const value = readStored(STORAGE.theme);
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
  token: readStored(STORAGE.token),
  refreshToken: readStored(STORAGE.refreshToken),
  user: readStoredJson<PublicUser>(STORAGE.user),
  theme: storedTheme(),
  themeColor: readStored(STORAGE.themeColor) ?? DEFAULT_THEME_COLOR,
  unread: 0,
  authModal: false,
  signIn(tokens, user) {
    writeStored(STORAGE.token, tokens.access_token);
    writeStored(STORAGE.refreshToken, tokens.refresh_token);
    writeStored(STORAGE.user, JSON.stringify(user));
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token, user });
  },
  setTokens(tokens) {
    writeStored(STORAGE.token, tokens.access_token);
    writeStored(STORAGE.refreshToken, tokens.refresh_token);
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token });
  },
  setUser(user) {
    writeStored(STORAGE.user, JSON.stringify(user));
    set({ user });
  },
  signOut() {
    writeStored(STORAGE.token, null);
    writeStored(STORAGE.refreshToken, null);
    writeStored(STORAGE.user, null);
    set({ token: null, refreshToken: null, user: null, unread: 0 });
  },
  setTheme(theme) {
    writeStored(STORAGE.theme, theme);
    set({ theme });
  },
  setThemeColor(themeColor) {
    writeStored(STORAGE.themeColor, themeColor);
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

