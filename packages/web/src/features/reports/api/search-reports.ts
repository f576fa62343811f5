import { PATHS, ReportPageSchema, type SearchReports } from '@sextant/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { reportListKey } from './report-keys.ts';

export type ReportSearch = Partial<SearchReports> & Pick<SearchReports, 'testType'>;

/** POST /api/searchReports (specification point 7); filters are sent only when set. */
export async function searchReports(query: ReportSearch) {
  const body = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  return api.post(PATHS.searchReports, ReportPageSchema, body);
}

export const searchReportsOptions = (query: ReportSearch) =>
  queryOptions({
    queryKey: reportListKey(query),
    queryFn: () => searchReports(query),
    placeholderData: keepPreviousData,
  });

export function useSearchReports(query: ReportSearch) {
  return useQuery(searchReportsOptions(query));
}
