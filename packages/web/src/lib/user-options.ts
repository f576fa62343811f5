import { PATHS, pageSchema, UserRowSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from './session.tsx';

/** Users as select options (first 200 by name; the select searches within them). */
export function useUserOptions(enabled = true) {
  const users = useQuery({
    queryKey: [PATHS.users, 'options'],
    queryFn: () => api.get(PATHS.users, pageSchema(UserRowSchema), { query: { perPage: 200, sortBy: 'username' } }),
    enabled,
    staleTime: 60_000,
  });
  return (users.data?.items ?? []).map((u) => ({
    value: u.id,
    label: u.displayName ? `${u.displayName} (${u.username})` : u.username,
  }));
}
