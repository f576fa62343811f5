import { Outlet } from 'react-router';

/** Full-layout screens have no navigation frame (specification point 2). */
export function FullLayout() {
  return (
    <main className="full-layout">
      <Outlet />
    </main>
  );
}
