import { type CreateReport, NoDataSchema, PATHS, pathTo, ReportSchema, type UpdateReport } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { reportsRoot } from './report-keys.ts';

export async function createReport(input: CreateReport) {
  return api.post(PATHS.reports, ReportSchema, input);
}

export async function updateReport(id: string, input: UpdateReport) {
  return api.patch(pathTo(PATHS.report, { id }), ReportSchema, input);
}

export async function deleteReport(id: string) {
  await api.delete(pathTo(PATHS.report, { id }), NoDataSchema);
}

/** Create (no id) or update a report; every report query is refreshed afterwards. */
export function useSaveReport(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateReport | UpdateReport) =>
      id ? updateReport(id, input as UpdateReport) : createReport(input as CreateReport),
    onSuccess: () => client.invalidateQueries({ queryKey: reportsRoot }),
  });
}

export function useDeleteReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteReport,
    onSuccess: () => client.invalidateQueries({ queryKey: reportsRoot }),
  });
}
