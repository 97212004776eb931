import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import { Spinner } from '../components/Feedback';
import { Toasts } from '../components/Toasts';
import { useTheme } from '../hooks/useTheme';
import { entityByName } from './entities';
import { ManagementTable } from './table/ManagementTable';
import './admin.css';

const LoginPage = lazy(() => import('./LoginPage'));
const AdminLayout = lazy(() => import('./AdminLayout'));
const ApiDocsPage = lazy(() => import('./ApiDocsPage'));
const MonitorPage = lazy(() => import('./MonitorPage'));

function EntityPage() {
  const declaration = entityByName(useParams().entity);
  if (!declaration) return <Navigate to="/admin/api-docs" replace />;
  return <ManagementTable key={declaration.name} declaration={declaration} />;
}

const loading = (
  <div className="admin-center page-loading">
    <Spinner />
  </div>
);

/** The console under /admin (admin-and-startup.md §2.3), a chunk of its own that a student never downloads. */
export default function AdminApp() {
  useTheme();
  return (
    <>
      <Suspense fallback={loading}>
        <Routes>
          <Route path="login" element={<LoginPage />} />
          <Route element={<AdminLayout />}>
            <Route index element={<Navigate to="api-docs" replace />} />
            <Route path="api-docs" element={<ApiDocsPage />} />
            <Route path="monitor" element={<MonitorPage />} />
            <Route path=":entity" element={<EntityPage />} />
          </Route>
        </Routes>
      </Suspense>
      <Toasts />
    </>
  );
}
