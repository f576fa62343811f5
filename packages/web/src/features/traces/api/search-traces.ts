import { PATHS, TraceSearchResultSchema } from '@sextant/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import type { TraceSearch } from '../url.ts';

/** GET /api/traces: the traces of one app matching the filters, most recent first. */
export function searchTraces(search: TraceSearch & { appId: string }) {
  return api.get(PATHS.traces, TraceSearchResultSchema, { query: { ...search, limit: 200 } });
}

export function useTraceSearch(search: TraceSearch) {
  const appId = search.appId;
  return useQuery({
    queryKey: ['traces', 'search', search],
    queryFn: () => searchTraces({ ...search, appId: appId as string }),
    enabled: Boolean(appId),
    placeholderData: keepPreviousData,
  });
}
