import { useLayoutEffect } from 'react';
import type { IconName } from '../components/Icon';
import { darken } from '../lib/format';
import { type ThemeMode, useSession } from '../lib/session';
import { useMediaQuery } from './useMediaQuery';

/** The three theme modes (public-side.md §4): system (follows the OS), light, dark; a short label and a full name. */
export const THEME_MODES: { mode: ThemeMode; label: string; name: string; icon: IconName }[] = [
  { mode: 'system', label: '系统', name: '跟随系统', icon: 'monitor' },
  { mode: 'light', label: '浅色', name: '浅色模式', icon: 'sun' },
  { mode: 'dark', label: '深色', name: '深色模式', icon: 'moon' },
];

/** Applies the theme mode (system follows the OS) and the theme colour with its darker shade to the page. */
export function useTheme(): void {
  const theme = useSession((state) => state.theme);
  const color = useSession((state) => state.themeColor);
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)');
  const dark = theme === 'dark' || (theme === 'system' && prefersDark);
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = dark ? 'dark' : 'light';
    root.style.setProperty('--theme-color', color);
    root.style.setProperty('--theme-color-dark', darken(color));
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', dark ? '#121212' : '#ffffff');
  }, [dark, color]);
}
