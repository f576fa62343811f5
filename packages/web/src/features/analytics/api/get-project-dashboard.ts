import { type AnalyticsFilter, PATHS, ProjectDashboardSchema, pathTo } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** GET /api/analytics/projects/:id: a project's figures, its apps' standings and latest versions. */
export function useProjectDashboard(id: string, filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', 'project-dashboard', id, filter],
    queryFn: () => api.get(pathTo(PATHS.projectDashboard, { id }), ProjectDashboardSchema, { query: filter }),
  });
}
