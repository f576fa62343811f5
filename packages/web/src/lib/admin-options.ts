import type { PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from './session.tsx';

type Named = { id: string; name: string };

/** Teams, apps or projects as select options (the first 200 by name). */
export function useNamedOptions(path: (typeof PATHS)['teams' | 'apps' | 'projects'], enabled = true) {
  const list = useQuery({
    queryKey: [path, 'options'],
    queryFn: () => api.get<{ items: Named[] }>(path, { query: { perPage: 200, sortBy: 'name' } }),
    enabled,
    staleTime: 30_000,
  });
  return (list.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }));
}
