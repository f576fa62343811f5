import type { PATHS } from '@sextant/api';
import { NamedRowSchema, pageSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from './session.tsx';

/** Teams, apps or projects as select options (the first 200 by name). */
export function useNamedOptions(path: (typeof PATHS)['teams' | 'apps' | 'projects'], enabled = true) {
  const list = useQuery({
    queryKey: [path, 'options'],
    queryFn: () => api.get(path, pageSchema(NamedRowSchema), { query: { perPage: 200, sortBy: 'name' } }),
    enabled,
    staleTime: 30_000,
  });
  return (list.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }));
}
