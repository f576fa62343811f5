import { type DETAIL_SORTS, PATHS, ReportDetailPageSchema } from '@sextant/api';
import { keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { reportDetailsKey } from './report-keys.ts';

export type DetailQuery = {
  classId?: string;
  page?: number;
  perPage?: number;
  sortBy?: (typeof DETAIL_SORTS)[number];
  sortDesc?: boolean;
  changedOnly?: boolean;
  uncoveredOnly?: boolean;
  q?: string;
};

/** GET /api/getReportDetails (point 7): class rows (classId '') or one class's method rows. */
export async function getReportDetails(reportId: string, query: DetailQuery) {
  return api.get(PATHS.getReportDetails, ReportDetailPageSchema, { query: { reportId, classId: '', ...query } });
}

export const reportDetailsOptions = (reportId: string, query: DetailQuery) =>
  queryOptions({
    queryKey: reportDetailsKey(reportId, query),
    queryFn: () => getReportDetails(reportId, query),
    placeholderData: keepPreviousData,
  });

export function useReportDetails(reportId: string, query: DetailQuery, enabled = true) {
  return useQuery({ ...reportDetailsOptions(reportId, query), enabled });
}

/** Class rows fetched per page as the detail table scrolls (issue 41): a screenful and a few more. */
export const DETAIL_PAGE_ROWS = 200;

/**
 * The detail table's class rows, page after page by keyset (`next` → `after`): the first page shows as
 * soon as its rows come, whatever the report's size, and later pages come only when scrolled to.
 */
export function useReportDetailRows(reportId: string, query: Omit<DetailQuery, 'page'>, enabled = true) {
  const perPage = query.perPage ?? DETAIL_PAGE_ROWS;
  return useInfiniteQuery({
    queryKey: reportDetailsKey(reportId, { ...query, perPage, keyset: true }),
    queryFn: ({ pageParam }) =>
      api.get(PATHS.getReportDetails, ReportDetailPageSchema, {
        query: { reportId, classId: '', ...query, perPage, ...(pageParam ? { after: pageParam } : {}) },
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}
