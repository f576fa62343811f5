import { useState } from 'react';
import { download, toCsv } from './csv.ts';

type Cell = string | number | null;
/** One page of a list answer, as every paged analytics read returns it. */
type Paged<T> = { items: T[]; total: number };

/** Rows read per request while exporting: the largest page the analytics reads accept. */
const EXPORT_PAGE = 500;

/**
 * A list screen's CSV export: every row under the screen's filter and sort (not only the page on screen),
 * read page by page until the answer's total, then offered as `file`.
 */
export function useCsvExport<T>(
  file: string,
  header: readonly string[],
  row: (item: T) => readonly Cell[],
  readPage: (page: number, perPage: number) => Promise<Paged<T>>,
) {
  const [exporting, setExporting] = useState(false);
  const exportAll = async () => {
    setExporting(true);
    try {
      const all: T[] = [];
      for (let page = 1; ; page++) {
        const next = await readPage(page, EXPORT_PAGE);
        all.push(...next.items);
        if (all.length >= next.total || next.items.length === 0) break;
      }
      download(file, toCsv(header, all.map(row)));
    } finally {
      setExporting(false);
    }
  };
  return { exporting, exportAll };
}
