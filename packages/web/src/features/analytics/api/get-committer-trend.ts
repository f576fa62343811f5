import { type AnalyticsFilter, CommitterTrendSchema, PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** GET /api/analytics/committers/trend: method coverage per version of the committers with most uncovered methods. */
export function useCommitterTrend(filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', 'committer-trend', filter],
    queryFn: () => api.get(PATHS.analyticsCommitterTrend, CommitterTrendSchema, { query: filter }),
  });
}
