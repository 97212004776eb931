import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useParams, useSearchParams, type Location } from 'react-router';
import { Spinner } from '../components/Feedback';
import { Toasts } from '../components/Toasts';
import { useChannels } from '../hooks/useChannels';
import { useSessionStart } from '../hooks/useSessionStart';
import { useTheme } from '../hooks/useTheme';
import { ApiError } from '../lib/api/client';
import { useSession } from '../lib/session';
import { AuthGate } from '../features/auth/components/AuthModal';
import ExplorePage from '../features/explore/components/ExplorePage';
import { Layout } from './layout/Layout';

// /explore is the first page almost every visit opens: it comes with the shell rather than a round trip later.
const NotePage = lazy(() => import('../features/note/components/NotePage'));
const NoteOverlay = lazy(() => import('../features/note/components/NoteOverlay'));
const ProfilePage = lazy(() => import('../features/user/components/ProfilePage'));
const FollowListPage = lazy(() => import('../features/user/components/FollowListPage'));
const NotificationsPage = lazy(() => import('../features/notification/components/NotificationsPage'));
const SearchPage = lazy(() => import('../features/search/components/SearchPage'));
const PublishPage = lazy(() => import('../features/publish/components/PublishPage'));
const ManagePage = lazy(() => import('../features/publish/components/ManagePage'));
// The console is a chunk of its own: nothing of it is in the first page a student loads.
const AdminApp = lazy(() => import('../admin/AdminApp'));
const NotFoundPage = lazy(() => import('../components/NotFound').then((module) => ({ default: module.NotFound })));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500) },
  },
});

const SEARCH_TABS = ['all', 'post', 'video', 'user'] as const;
const isSearchTab = (tab: string): tab is (typeof SEARCH_TABS)[number] => (SEARCH_TABS as readonly string[]).includes(tab);
const PLURAL_TABS: Record<string, string> = { posts: 'post', videos: 'video', users: 'user' };

/** /search_result always goes to a tab, keeping the query; an unknown tab goes to all. */
function SearchRedirect() {
  const { tab } = useParams();
  const [params] = useSearchParams();
  const query = params.toString() ? `?${params.toString()}` : '';
  if (tab && isSearchTab(tab)) return <SearchPage key={tab} tab={tab} />;
  return <Navigate to={`/search_result/${(tab && PLURAL_TABS[tab]) || 'all'}${query}`} replace />;
}

/** /follow/{type}: needs login (else home), type one of mutual, following, followers (else following). */
function FollowGuard() {
  const { type } = useParams();
  const user = useSession((state) => state.user);
  if (!user) return <Navigate to="/" replace />;
  if (type !== 'mutual' && type !== 'following' && type !== 'followers') return <Navigate to="/follow/following" replace />;
  return <FollowListPage type={type} />;
}

function PageFallback() {
  return (
    <div className="page-loading">
      <Spinner />
    </div>
  );
}

function AppRoutes() {
  const location = useLocation();
  const background = (location.state as { background?: Location } | null)?.background;
  useSessionStart();
  useChannels();
  useTheme();
  // A new page starts at the top; opening or closing the note overlay keeps the page where it was.
  const pagePath = (background ?? location).pathname;
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [pagePath]);
  return (
    <>
      <Suspense fallback={<PageFallback />}>
        <Routes location={background ?? location}>
          <Route element={<Layout />}>
            <Route index element={<Navigate to="/explore" replace />} />
            <Route path="explore" element={<ExplorePage />} />
            <Route path="explore/:channel" element={<ExplorePage />} />
            <Route path="post" element={<NotePage />} />
            <Route path="publish" element={<PublishPage />} />
            <Route path="notification" element={<NotificationsPage />} />
            <Route path="user" element={<ProfilePage />} />
            <Route path="user/:userId" element={<ProfilePage />} />
            <Route path="follow/:type" element={<FollowGuard />} />
            <Route path="search_result" element={<SearchRedirect />} />
            <Route path="search_result/:tab" element={<SearchRedirect />} />
            <Route path="post-management" element={<ManagePage key="notes" drafts={false} />} />
            <Route path="draft-box" element={<ManagePage key="drafts" drafts />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
      {background && (
        <Suspense fallback={null}>
          <NoteOverlay />
        </Suspense>
      )}
      <AuthGate />
      <Toasts />
    </>
  );
}

/** The app: query client, router, the session's start-up, theme, routes, the overlay, sign-in and toasts. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route
            path="/admin/*"
            element={
              <Suspense fallback={<PageFallback />}>
                <AdminApp />
              </Suspense>
            }
          />
          <Route path="*" element={<AppRoutes />} />
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
