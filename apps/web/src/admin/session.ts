import { create } from 'zustand';
import { readStored, readStoredJson, writeStored } from '../lib/storage';

/** The console's local-storage keys (admin-and-startup.md §2.1), apart from the student's token. */
export const ADMIN_STORAGE = { token: 'admin_token', refreshToken: 'admin_refresh_token', info: 'admin_info' } as const;

export interface AdminInfo {
  id: number;
  username: string;
  created_at: string;
  last_login_at: string | null;
}

interface AdminSessionState {
  token: string | null;
  refreshToken: string | null;
  admin: AdminInfo | null;
  signIn(tokens: { access_token: string; refresh_token: string }, admin: AdminInfo): void;
  setTokens(tokens: { access_token: string; refresh_token: string }): void;
  setAdmin(admin: AdminInfo): void;
  signOut(): void;
}

/** The administrator's session, kept apart from the student's so that both can be signed in on one browser. */
export const useAdminSession = create<AdminSessionState>((set) => ({
  token: readStored(ADMIN_STORAGE.token),
  refreshToken: readStored(ADMIN_STORAGE.refreshToken),
  admin: readStoredJson<AdminInfo>(ADMIN_STORAGE.info),
  signIn(tokens, admin) {
    writeStored(ADMIN_STORAGE.token, tokens.access_token);
    writeStored(ADMIN_STORAGE.refreshToken, tokens.refresh_token);
    writeStored(ADMIN_STORAGE.info, JSON.stringify(admin));
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token, admin });
  },
  setTokens(tokens) {
    writeStored(ADMIN_STORAGE.token, tokens.access_token);
    writeStored(ADMIN_STORAGE.refreshToken, tokens.refresh_token);
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token });
  },
  setAdmin(admin) {
    writeStored(ADMIN_STORAGE.info, JSON.stringify(admin));
    set({ admin });
  },
  signOut() {
    for (const key of Object.values(ADMIN_STORAGE)) writeStored(key, null);
    set({ token: null, refreshToken: null, admin: null });
  },
}));
