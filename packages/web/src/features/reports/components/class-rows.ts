import type { ReportDetail } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useErrorMessage } from '../../../lib/error-texts.ts';
import { type DetailQuery, reportDetailsOptions } from '../api/get-report-details.ts';

/** A class or method row of the class table; `note` marks a stand-in that says why there are no methods yet. */
export type Row = ReportDetail & { children?: Row[]; note?: string };

/** A stand-in child so the class shows its expand arrow before its methods are fetched. */
const stub = (parent: ReportDetail, note: string): Row => ({
  ...parent,
  id: `${parent.id}:stub`,
  kind: 'method',
  note,
});

/**
 * The class rows with their methods, fetched when a class is first opened (with the table's sort):
 * until then a stand-in saying `loadingNote`, or the error that stopped the fetch.
 */
export function useClassRows(reportId: string, rows: ReportDetail[], query: DetailQuery, loadingNote: string) {
  const client = useQueryClient();
  const errorMessage = useErrorMessage();
  const [methods, setMethods] = useState<Record<string, Row[] | string>>({});
  const data = useMemo<Row[]>(
    () =>
      rows.map((c) => {
        if (c.methodCount === 0) return c;
        const loaded = methods[c.id];
        return { ...c, children: Array.isArray(loaded) ? loaded : [stub(c, loaded ?? loadingNote)] };
      }),
    [rows, methods, loadingNote],
  );

  function expand(open: boolean, row: Row) {
    if (!open || row.kind !== 'class' || Array.isArray(methods[row.id])) return;
    const methodQuery = { classId: row.id, perPage: 100_000, sortBy: query.sortBy, sortDesc: query.sortDesc };
    client.fetchQuery(reportDetailsOptions(reportId, methodQuery)).then(
      (page) => setMethods((m) => ({ ...m, [row.id]: page.reports })),
      (error) => setMethods((m) => ({ ...m, [row.id]: errorMessage(error) })),
    );
  }

  /** The names of a class's methods, once they are loaded. */
  const siblingsOf = (classId: string) => {
    const loaded = methods[classId];
    return Array.isArray(loaded) ? loaded.map((m) => m.name) : undefined;
  };

  return { data, expand, siblingsOf, forgetMethods: () => setMethods({}) };
}
