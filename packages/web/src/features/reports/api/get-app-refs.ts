import {
  AppSchema,
  BranchRefreshSchema,
  BranchSchema,
  PATHS,
  pageSchema,
  pathTo,
  type Version,
  VersionSchema,
} from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** The apps a report can be made for, with their environments (first 200 by name). */
export function useReportApps() {
  return useQuery({
    queryKey: [PATHS.apps, 'report-form'],
    queryFn: () => api.get(PATHS.apps, pageSchema(AppSchema), { query: { perPage: 200, sortBy: 'name' } }),
    staleTime: 30_000,
  });
}

export type RefOption = { value: string; label: string };

/**
 * Versions to offer for an app: its branches (tracked first, from the last refresh) and the refs
 * its project versions name. Any other tag or commit can still be typed.
 */
export function useAppRefs(appId: string | undefined) {
  return useQuery({
    queryKey: ['reports', 'refs', appId],
    enabled: Boolean(appId),
    staleTime: 30_000,
    queryFn: async (): Promise<{ branches: RefOption[]; versions: RefOption[] }> => {
      const [branches, versions] = await Promise.all([
        api.get(PATHS.branches, pageSchema(BranchSchema), { query: { appId, perPage: 200, sortBy: 'name' } }),
        api.get(PATHS.versions, pageSchema(VersionSchema), { query: { appId, perPage: 200 } }).catch(() => ({
          items: [] as Version[],
        })),
      ]);
      const present = branches.items.filter((b) => b.present);
      present.sort((a, b) => Number(b.tracked) - Number(a.tracked));
      const refs = new Map<string, string>();
      for (const v of versions.items) {
        refs.set(v.newRef, `${v.newRef} (version ${v.name}, new)`);
        if (!refs.has(v.baseRef)) refs.set(v.baseRef, `${v.baseRef} (version ${v.name}, base)`);
      }
      return {
        branches: present.map((b) => ({ value: b.name, label: `${b.name} · ${b.commit.slice(0, 8)}` })),
        versions: [...refs].map(([value, label]) => ({ value, label })),
      };
    },
  });
}

/** Reads the app's branches from its repository (git ls-remote on the server), then offers them. */
export function useRefreshBranches() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (appId: string) => api.post(pathTo(PATHS.appRefreshBranches, { id: appId }), BranchRefreshSchema),
    onSuccess: (_answer, appId) => client.invalidateQueries({ queryKey: ['reports', 'refs', appId] }),
  });
}
