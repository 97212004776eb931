import { useLayoutEffect } from 'react';
import { darken } from '../lib/format';
import { useSession } from '../lib/session';
import { useMediaQuery } from './useMediaQuery';

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
