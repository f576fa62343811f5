import { type AnalyticsFilter, type AppAnalyticQuery, AppVersionPageSchema, PATHS } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type AppPaging = Pick<AppAnalyticQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>;

/** GET /api/analytics/apps: per app, version and test type the latest reports' figures, paged on the server. */
export function getAppVersions(filter: AnalyticsFilter, paging: AppPaging) {
  return api.get(PATHS.analyticsApps, AppVersionPageSchema, { query: { ...filter, ...paging } });
}

export function useAppVersions(filter: AnalyticsFilter, paging: AppPaging) {
  return useQuery({
    queryKey: ['analytics', 'apps', filter, paging],
    queryFn: () => getAppVersions(filter, paging),
    placeholderData: keepPreviousData,
  });
}
