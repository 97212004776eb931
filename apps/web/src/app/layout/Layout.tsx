import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { Icon, type IconName } from '../../components/Icon';
import { MOBILE, useMediaQuery, WIDE } from '../../hooks/useMediaQuery';
import { useSession } from '../../lib/session';
import { SearchBox } from '../../features/search/components/SearchBox';
import { MoreMenu } from './MoreMenu';

/** The unread badge: the count, or three dots above 99 (public-side.md §2). */
function Badge({ count }: { count: number }) {
  if (count <= 0) return null;
  return <span className="badge">{count > 99 ? '···' : count}</span>;
}

function Header() {
  const wide = useMediaQuery(WIDE);
  const [searching, setSearching] = useState(false);
  return (
    <header className="header">
      {searching && !wide ? (
        <div className="header-search-mobile">
          <SearchBox onDone={() => setSearching(false)} autoFocus />
          <button type="button" className="text-button" onClick={() => setSearching(false)}>
            取消
          </button>
        </div>
      ) : (
        <>
          <Link to="/" className="logo" aria-label="拾柳首页">
            <span className="logo-mark">拾柳</span>
          </Link>
          {wide ? (
            <SearchBox />
          ) : (
            <div className="header-actions">
              <button type="button" className="icon-button" aria-label="搜索" onClick={() => setSearching(true)}>
                <Icon name="search" />
              </button>
              <MoreMenu compact />
            </div>
          )}
        </>
      )}
    </header>
  );
}

interface NavItem {
  to: string;
  label: string;
  icon: IconName;
  badge?: boolean;
  match?: (path: string) => boolean;
}

const NAV: NavItem[] = [
  { to: '/explore', label: '发现', icon: 'home', match: (path) => path.startsWith('/explore') },
  { to: '/publish', label: '发布', icon: 'plus' },
  { to: '/notification', label: '通知', icon: 'bell', badge: true },
];

function Sidebar() {
  const user = useSession((state) => state.user);
  const unread = useSession((state) => state.unread);
  const { pathname } = useLocation();
  return (
    <nav className="sidebar" aria-label="主导航">
      {NAV.map((item) => (
        <NavLink key={item.to} to={item.to} className={() => `side-link ${item.match?.(pathname) ?? pathname === item.to ? 'active' : ''}`}>
          <Icon name={item.icon} />
          <span>{item.label}</span>
          {item.badge && <Badge count={unread} />}
        </NavLink>
      ))}
      {user ? (
        <NavLink to="/user" end className={({ isActive }) => `side-link ${isActive ? 'active' : ''}`}>
          <Avatar src={user.avatar} size={24} />
          <span>我</span>
        </NavLink>
      ) : (
        <button type="button" className="button primary side-login" onClick={() => useSession.getState().openAuth()}>
          登录
        </button>
      )}
      <div className="sidebar-bottom">
        <MoreMenu />
      </div>
    </nav>
  );
}

function BottomBar() {
  const unread = useSession((state) => state.unread);
  const { pathname } = useLocation();
  const items: NavItem[] = [...NAV, { to: '/user', label: '我', icon: 'user' }];
  return (
    <nav className="bottom-bar" aria-label="主导航">
      {items.map((item) => (
        <Link key={item.to} to={item.to} className={`bottom-link ${(item.match?.(pathname) ?? pathname === item.to) ? 'active' : ''}`} aria-label={item.label}>
          <span className="bottom-icon">
            <Icon name={item.icon} />
            {item.badge && <Badge count={unread} />}
          </span>
          <span className="bottom-label">{item.label}</span>
        </Link>
      ))}
    </nav>
  );
}

/**
 * The page frame: header, then the sidebar (wide) or bottom bar (narrow) around the page. A note's own page on a
 * phone is the exception: it has a header and a comment bar of its own, so the site's are left out.
 */
export function Layout() {
  const wide = useMediaQuery(WIDE);
  const mobile = useMediaQuery(MOBILE);
  const { pathname } = useLocation();
  const immersive = mobile && pathname === '/post';
  const previous = useRef(pathname);
  // Leaving /notification refetches the unread count 500 ms later (public-side.md §4).
  useEffect(() => {
    if (previous.current === '/notification' && pathname !== '/notification') {
      const timer = setTimeout(() => window.dispatchEvent(new Event('shiliu:unread')), 500);
      previous.current = pathname;
      return () => clearTimeout(timer);
    }
    previous.current = pathname;
  }, [pathname]);
  return (
    <div className={`app ${wide ? 'wide' : 'narrow'} ${immersive ? 'immersive' : ''}`}>
      {!immersive && <Header />}
      {wide && <Sidebar />}
      <main className="page">
        <Outlet />
      </main>
      {!wide && !immersive && <BottomBar />}
    </div>
  );
}
