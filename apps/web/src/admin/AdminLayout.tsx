import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { Icon } from '../components/Icon';
import { ConfirmDialog } from '../components/Modal';
import { useMediaQuery } from '../hooks/useMediaQuery';
import { THEME_MODES } from '../hooks/useTheme';
import { useSession } from '../lib/session';
import { toast } from '../lib/toast';
import { ADMIN_MESSAGES, adminApi, adminFetch, adminTyped } from './api';
import { ENTITIES } from './entities';
import { adminTokenState } from './guard';
import { useAdminSession } from './session';

/** The sidebar's pages (§2.3): the docs and the monitor, then the twelve management screens. */
export const ADMIN_PAGES = [
  { path: 'api-docs', title: 'API 文档' },
  { path: 'monitor', title: '动态监控' },
  ...ENTITIES.map((entity) => ({ path: entity.name, title: entity.title })),
];

/** The theme switch (§2.3): three states, light, dark and follow the system, the one in force pressed. */
function ThemeSwitch() {
  const theme = useSession((state) => state.theme);
  const setTheme = useSession((state) => state.setTheme);
  return (
    <div className="admin-theme" role="group" aria-label="外观">
      {THEME_MODES.map(({ mode, name, icon }) => (
        <button key={mode} type="button" className={`icon-button ${theme === mode ? 'active' : ''}`} aria-pressed={theme === mode} aria-label={`切换到${name}`} title={name} onClick={() => setTheme(mode)}>
          <Icon name={icon} size={18} />
        </button>
      ))}
    </div>
  );
}

/**
 * No usable administrator token (§2.3): its data is cleared and the login screen takes over, with the spec's message
 * when there was a token; a first visit, with none, has nothing to be told.
 */
function TurnedAway({ state }: { state: 'none' | 'foreign' | 'expired' }) {
  const location = useLocation();
  const signOut = useAdminSession((store) => store.signOut);
  useEffect(() => {
    signOut();
    if (state !== 'none') toast.error(ADMIN_MESSAGES.loginExpired);
  }, [signOut, state]);
  return <Navigate to={`/admin/login?redirect=${encodeURIComponent(location.pathname)}`} replace />;
}

/**
 * The console's frame (admin-and-startup.md §2.3): the guard, the sidebar, return to the site, the theme switch and
 * logout with a confirmation.
 */
export default function AdminLayout() {
  const location = useLocation();
  const narrow = useMediaQuery('(max-width: 960px)');
  const { token, refreshToken, admin, signOut } = useAdminSession();
  const [menu, setMenu] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // Set before the token is dropped, so that the render it causes goes to the login page quietly instead of taking
  // the guard's "login expired" path, whose redirect would race the logout's own navigation.
  const loggedOut = useRef(false);
  const state = adminTokenState(token, refreshToken);
  const me = useQuery({ queryKey: ['admin-me', token], queryFn: () => adminTyped(adminApi.GET('/api/auth/admin/me')), enabled: state === 'ok', staleTime: 60_000, retry: false });
  const setAdmin = useAdminSession((store) => store.setAdmin);
  useEffect(() => {
    if (me.data) setAdmin(me.data);
  }, [me.data, setAdmin]);
  useEffect(() => setMenu(false), [location.pathname]);
  const page = ADMIN_PAGES.find((item) => location.pathname.startsWith(`/admin/${item.path}`));
  useEffect(() => {
    document.title = `${page?.title ?? '管理后台'} - 拾柳管理后台`;
  }, [page]);

  if (loggedOut.current) return <Navigate to="/admin/login" replace />;
  if (state !== 'ok') return <TurnedAway state={state} />;

  const logout = async () => {
    setLeaving(false);
    await adminFetch(new Request(new URL('/api/auth/admin/logout', window.location.origin), { method: 'POST' })).catch(() => undefined);
    loggedOut.current = true;
    signOut();
    toast.success('已退出登录');
  };

  return (
    <div className={`admin-app${narrow ? ' narrow' : ''}`}>
      <aside className={`admin-sidebar${menu ? ' open' : ''}`} aria-label="管理菜单">
        <div className="admin-brand">
          <span className="logo-mark">拾柳</span>
          <span className="admin-login-badge">管理后台</span>
        </div>
        <nav className="admin-nav">
          {ADMIN_PAGES.map((item) => (
            <NavLink key={item.path} to={`/admin/${item.path}`} className={({ isActive }) => `admin-nav-link${isActive ? ' active' : ''}`}>
              {item.title}
            </NavLink>
          ))}
        </nav>
      </aside>
      {menu && <div className="admin-scrim" onClick={() => setMenu(false)} aria-hidden="true" />}
      <div className="admin-main">
        <header className="admin-header">
          {narrow && (
            <button type="button" className="icon-button" aria-label="打开菜单" onClick={() => setMenu(true)}>
              <Icon name="menu" size={20} />
            </button>
          )}
          <h1 className="admin-page-title">{page?.title ?? '管理后台'}</h1>
          <div className="admin-header-actions">
            <Link to="/explore" className="button ghost small" title="返回主站">
              <Icon name="home" size={16} />
              {!narrow && '返回主站'}
            </Link>
            <ThemeSwitch />
            <span className="admin-who" title={admin?.username}>
              <Icon name="user" size={16} />
              {!narrow && admin?.username}
            </span>
            <button type="button" className="button ghost small" onClick={() => setLeaving(true)}>
              退出登录
            </button>
          </div>
        </header>
        <main className="admin-content">
          <Outlet />
        </main>
      </div>
      {leaving && <ConfirmDialog text="确定要退出管理后台吗？" confirmLabel="退出" onCancel={() => setLeaving(false)} onConfirm={logout} />}
    </div>
  );
}
