import type { Report } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { reportKey, reportsRoot } from '../api/report-keys.ts';
import { isRunning } from './report-status.ts';
import { type ProgressMessage, useReportProgress } from './useReportProgress.ts';

type ReportPage = { reports: Report[]; total: number };

/**
 * Keeps report lists and open reports live: a running step patches the cached row's status at once;
 * a final status (or a report not yet listed) refetches, since its figures change too.
 */
export function useLiveReportList(onProgress?: (message: ProgressMessage) => void) {
  const client = useQueryClient();
  useReportProgress((message) => {
    onProgress?.(message);
    let known = false;
    client.setQueriesData<ReportPage>({ queryKey: [...reportsRoot, 'search'] }, (page) => {
      if (!page?.reports.some((r) => r.id === message.report_id)) return page;
      known = true;
      return {
        ...page,
        reports: page.reports.map((r) =>
          r.id === message.report_id
            ? { ...r, status: message.status, errMsg: isRunning(message.status) ? null : message.text || r.errMsg }
            : r,
        ),
      };
    });
    client.setQueryData<Report>(reportKey(message.report_id), (r) => (r ? { ...r, status: message.status } : r));
    if (!known || !isRunning(message.status)) {
      void client.invalidateQueries({ queryKey: [...reportsRoot, 'search'] });
      void client.invalidateQueries({ queryKey: reportKey(message.report_id) });
    }
  });
}
