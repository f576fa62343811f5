import { DashboardSchema, PATHS } from '@sextant/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type DashboardScope = { teamId?: string; appId?: string };

/** GET /api/dashboard: per app and test type the latest figures and trend, running reports, open risks. */
export async function getDashboard(scope: DashboardScope) {
  return api.get(PATHS.dashboard, DashboardSchema, { query: scope });
}

export const dashboardOptions = (scope: DashboardScope) =>
  queryOptions({
    // Under the reports root so report progress pushes refresh it too.
    queryKey: ['reports', 'dashboard', scope],
    queryFn: () => getDashboard(scope),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });

export function useDashboard(scope: DashboardScope, enabled = true) {
  return useQuery({ ...dashboardOptions(scope), enabled });
}
