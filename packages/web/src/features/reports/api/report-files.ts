import { PATHS, pathTo, ReportFileSchema, SourceViewSchema } from '@sextant/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { reportFilesKey, reportSourceKey } from './report-keys.ts';

const FilesSchema = ReportFileSchema.array();

/** GET /api/reports/:id/files: every file of the report with its figures, for the tree. */
export async function getReportFiles(reportId: string) {
  return api.get(pathTo(PATHS.reportFiles, { id: reportId }), FilesSchema);
}

/** GET /api/reports/:id/source?path=: the file's lines and marks at the report's new commit. */
export async function getReportSource(reportId: string, path: string) {
  return api.get(pathTo(PATHS.reportSource, { id: reportId }), SourceViewSchema, { query: { path } });
}

export function useReportFiles(reportId: string) {
  return useQuery(queryOptions({ queryKey: reportFilesKey(reportId), queryFn: () => getReportFiles(reportId) }));
}

export function useReportSource(reportId: string, path: string | undefined) {
  return useQuery({
    queryKey: reportSourceKey(reportId, path ?? ''),
    queryFn: () => getReportSource(reportId, path ?? ''),
    enabled: Boolean(path),
    staleTime: 60_000,
  });
}
