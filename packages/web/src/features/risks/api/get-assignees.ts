import { PATHS, pathTo, UserRefSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { useUserOptions } from '../../../lib/user-options.ts';
import { riskKeys } from './risk-keys.ts';

/**
 * Whom a "needs test" judgment may assign, as select options: every account for those who may list
 * them (read User), otherwise GET /api/risks/:id/assignees (the app's team, the author, the judge).
 */
export function useAssigneeOptions(id: string | null, listsUsers: boolean) {
  const everyone = useUserOptions(id !== null && listsUsers);
  const scoped = useQuery({
    queryKey: [...riskKeys.all, 'assignees', id ?? ''],
    queryFn: () => api.get(pathTo(PATHS.riskAssignees, { id: id ?? '' }), UserRefSchema.array()),
    enabled: id !== null && !listsUsers,
  });
  if (listsUsers) return everyone;
  return (scoped.data ?? []).map((u) => ({
    value: u.id,
    label: u.displayName ? `${u.displayName} (${u.username})` : u.username,
  }));
}
