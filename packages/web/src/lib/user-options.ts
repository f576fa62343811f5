import { PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from './session.tsx';

type UserChoice = { id: string; username: string; displayName: string };

/** Users as select options (first 200 by name; the select searches within them). */
export function useUserOptions(enabled = true) {
  const users = useQuery({
    queryKey: [PATHS.users, 'options'],
    queryFn: () => api.get<{ items: UserChoice[] }>(PATHS.users, { query: { perPage: 200, sortBy: 'username' } }),
    enabled,
    staleTime: 60_000,
  });
  return (users.data?.items ?? []).map((u) => ({
    value: u.id,
    label: u.displayName ? `${u.displayName} (${u.username})` : u.username,
  }));
}
