import {
  type AnalyticsFilter,
  CaseAnalyticPageSchema,
  type CaseAnalyticQuery,
  CaseImpactSchema,
  CaseMethodsSchema,
  PATHS,
} from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type CasePaging = Pick<CaseAnalyticQuery, 'page' | 'perPage' | 'sortBy' | 'sortDesc'>;

/** GET /api/analytics/cases: one page of test cases, sorted on the server. */
export function getCaseAnalytics(filter: AnalyticsFilter, paging: CasePaging) {
  return api.get(PATHS.analyticsCases, CaseAnalyticPageSchema, { query: { ...filter, ...paging } });
}

export function useCaseAnalytics(filter: AnalyticsFilter, paging: CasePaging) {
  return useQuery({
    queryKey: ['analytics', 'cases', filter, paging],
    queryFn: () => getCaseAnalytics(filter, paging),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/analytics/cases/methods: what one case alone covers, and the changed methods it reached. */
export function useCaseMethods(filter: AnalyticsFilter, appId: string, caseKey: string) {
  return useQuery({
    queryKey: ['analytics', 'case-methods', filter, appId, caseKey],
    queryFn: () => api.get(PATHS.analyticsCaseMethods, CaseMethodsSchema, { query: { ...filter, appId, caseKey } }),
  });
}

/** GET /api/analytics/cases/impact: a version's cases to re-run and its test gaps (gaps paged). */
export function useCaseImpact(filter: AnalyticsFilter, gaps: { page: number; perPage: number }) {
  return useQuery({
    queryKey: ['analytics', 'case-impact', filter, gaps],
    queryFn: () => api.get(PATHS.analyticsCaseImpact, CaseImpactSchema, { query: { ...filter, ...gaps } }),
    placeholderData: keepPreviousData,
  });
}
