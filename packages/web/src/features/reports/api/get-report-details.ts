import { type DETAIL_SORTS, PATHS, ReportDetailPageSchema } from '@sextant/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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
