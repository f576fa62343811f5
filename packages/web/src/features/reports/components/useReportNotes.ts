import { useState } from 'react';
import { stepStatusOf } from './report-status.ts';
import { useLiveReportList } from './useLiveReportList.ts';

/** Keeps report queries live and collects one report's latest message text per pipeline step. */
export function useReportNotes(reportId: string | undefined): Record<string, string> {
  const [notes, setNotes] = useState<{ id: string | undefined; byStep: Record<string, string> }>({
    id: reportId,
    byStep: {},
  });
  useLiveReportList((message) => {
    if (!reportId || message.report_id !== reportId) return;
    const text = message.text || message.title;
    setNotes((n) => ({
      id: reportId,
      byStep: { ...(n.id === reportId ? n.byStep : {}), [stepStatusOf(message.status)]: text },
    }));
  });
  return notes.id === reportId ? notes.byStep : {};
}
