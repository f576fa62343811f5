import { type AnalyticsFilter, GroupFiguresListSchema, PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

export type GroupBy = 'projects' | 'versions';

/** GET /api/analytics/projects or /versions: each project's or version's latest reports summed. */
export function useGroupFigures(by: GroupBy, filter: AnalyticsFilter) {
  const path = by === 'projects' ? PATHS.analyticsProjects : PATHS.analyticsVersions;
  return useQuery({
    queryKey: ['analytics', by, filter],
    queryFn: () => api.get(path, GroupFiguresListSchema, { query: filter }),
  });
}
