import { type AnalyticsFilter, MyCoverageSchema, PATHS } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** GET /api/analytics/mine: the signed-in user's changed methods in each latest incremental report. */
export function useMyCoverage(filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', 'mine', filter],
    queryFn: () => api.get(PATHS.analyticsMine, MyCoverageSchema, { query: filter }),
    placeholderData: keepPreviousData,
  });
}
