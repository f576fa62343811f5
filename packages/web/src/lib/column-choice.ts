import { useCallback, useState } from 'react';
import { useSession } from './session.tsx';

/** A column the user may show or hide; `shown` is its state until the user chooses. */
export type ChoosableColumn = { key: string; title: string; shown: boolean };

const storageKey = (table: string, userId: string) => `sextant.columns.${table}.${userId}`;

function load(key: string): Record<string, boolean> {
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as unknown;
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

/**
 * Which of a table's choosable columns are shown, kept per user in this browser (a preference:
 * localStorage, as the layout's). Columns the user never touched keep their default.
 */
export function useColumnChoice(table: string) {
  const userId = useSession().userData?.userid ?? 'anonymous';
  const key = storageKey(table, userId);
  const [choice, setChoice] = useState(() => ({ key, values: load(key) }));
  const values = choice.key === key ? choice.values : load(key);
  const isShown = useCallback((column: ChoosableColumn) => values[column.key] ?? column.shown, [values]);
  const choose = useCallback(
    (columnKey: string, shown: boolean) => {
      const next = { ...values, [columnKey]: shown };
      localStorage.setItem(key, JSON.stringify(next));
      setChoice({ key, values: next });
    },
    [key, values],
  );
  return { isShown, choose };
}
