import { PATHS, ReportSchema } from '@sextant/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { reportKey } from './report-keys.ts';

/** GET /api/getReport?reportId= (point 7): one report, or a 404 error. */
export async function getReport(reportId: string) {
  return api.get(PATHS.getReport, ReportSchema, { query: { reportId } });
}

export const reportOptions = (reportId: string) =>
  queryOptions({ queryKey: reportKey(reportId), queryFn: () => getReport(reportId), retry: false });

export function useReport(reportId: string | undefined) {
  return useQuery({ ...reportOptions(reportId ?? ''), enabled: Boolean(reportId) });
}
