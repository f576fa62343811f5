import { type AnalyticsFilter, AppOverviewSchema, PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** GET /api/analytics/apps/overview: reports per day and coverage by week in the filter's scope. */
export function useAppOverview(filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', 'app-overview', filter],
    queryFn: () => api.get(PATHS.analyticsAppOverview, AppOverviewSchema, { query: filter }),
  });
}
