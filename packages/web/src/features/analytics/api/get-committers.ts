import { type AnalyticsFilter, CommitterPageSchema, type CommitterQuery, PATHS } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type CommitterPaging = Pick<CommitterQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>;

/** GET /api/analytics/committers: one page of committers, sorted on the server. */
export function getCommitters(filter: AnalyticsFilter, paging: CommitterPaging) {
  return api.get(PATHS.analyticsCommitters, CommitterPageSchema, { query: { ...filter, ...paging } });
}

export function useCommitters(filter: AnalyticsFilter, paging: CommitterPaging) {
  return useQuery({
    queryKey: ['analytics', 'committers', filter, paging],
    queryFn: () => getCommitters(filter, paging),
    placeholderData: keepPreviousData,
  });
}
