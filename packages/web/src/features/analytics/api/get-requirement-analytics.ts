import {
  type AnalyticsFilter,
  PATHS,
  RequirementAnalyticPageSchema,
  type RequirementAnalyticQuery,
} from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type RequirementPaging = Pick<RequirementAnalyticQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>;

/** GET /api/analytics/requirements: one page of requirements, sorted on the server. */
export function getRequirementAnalytics(filter: AnalyticsFilter, paging: RequirementPaging) {
  return api.get(PATHS.analyticsRequirements, RequirementAnalyticPageSchema, { query: { ...filter, ...paging } });
}

export function useRequirementAnalytics(filter: AnalyticsFilter, paging: RequirementPaging) {
  return useQuery({
    queryKey: ['analytics', 'requirements', filter, paging],
    queryFn: () => getRequirementAnalytics(filter, paging),
    placeholderData: keepPreviousData,
  });
}
