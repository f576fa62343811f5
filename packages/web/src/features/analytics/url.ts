import type { AnalyticsFilter } from '@sextant/api';
import { useSearchParams } from 'react-router';

export const FILTER_KEYS = ['teamId', 'appId', 'projectId', 'version', 'testType', 'envType', 'from', 'to'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The analytics filters, sort and page, all in the URL (every view is a link, restored on reload). */
export function useAnalyticsUrl() {
  const [params, setParams] = useSearchParams();
  const filter: AnalyticsFilter = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (!value) continue;
    if (key === 'testType') {
      if (value === '1' || value === '2') filter.testType = Number(value) as 1 | 2;
    } else filter[key] = value;
  }
  const page = Math.max(1, Number(params.get('page')) || 1);
  const perPage = Math.min(500, Math.max(1, Number(params.get('perPage')) || 20));
  const sortBy = params.get('sortBy') ?? undefined;
  const sortDesc = params.get('sortDesc') === 'true';
  /** Sets (or, with undefined, removes) values; a filter change goes back to the first page. */
  const set = (values: Record<string, string | number | boolean | undefined>) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(values)) {
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, String(value));
        }
        if (!('page' in values)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };
  const clear = () => setParams({}, { replace: true });
  return { filter, page, perPage, sortBy, sortDesc, set, clear };
}
