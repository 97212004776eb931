import { create } from 'zustand';

/** The console's local-storage keys (admin-and-startup.md §2.1), apart from the student's token. */
export const ADMIN_STORAGE = { token: 'admin_token', refreshToken: 'admin_refresh_token', info: 'admin_info' } as const;

export interface AdminInfo {
  id: number;
  username: string;
  created_at: string;
  last_login_at: string | null;
}

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
    // Private mode without storage: the administrator's session lives only in memory.
  }
}

function storedInfo(): AdminInfo | null {
  try {
    return JSON.parse(read(ADMIN_STORAGE.info) ?? 'null') as AdminInfo | null;
  } catch {
    return null;
  }
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
  token: read(ADMIN_STORAGE.token),
  refreshToken: read(ADMIN_STORAGE.refreshToken),
  admin: storedInfo(),
  signIn(tokens, admin) {
    write(ADMIN_STORAGE.token, tokens.access_token);
    write(ADMIN_STORAGE.refreshToken, tokens.refresh_token);
    write(ADMIN_STORAGE.info, JSON.stringify(admin));
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token, admin });
  },
  setTokens(tokens) {
    write(ADMIN_STORAGE.token, tokens.access_token);
    write(ADMIN_STORAGE.refreshToken, tokens.refresh_token);
    set({ token: tokens.access_token, refreshToken: tokens.refresh_token });
  },
  setAdmin(admin) {
    write(ADMIN_STORAGE.info, JSON.stringify(admin));
    set({ admin });
  },
  signOut() {
    for (const key of Object.values(ADMIN_STORAGE)) write(key, null);
    set({ token: null, refreshToken: null, admin: null });
  },
}));
