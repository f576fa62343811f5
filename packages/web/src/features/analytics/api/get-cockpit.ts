import { type AnalyticsFilter, CockpitSchema, PATHS } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';

/** GET /api/analytics/cockpit: standings, trend and activity for the management view. */
export function useCockpit(filter: AnalyticsFilter) {
  return useQuery({
    queryKey: ['analytics', 'cockpit', filter],
    queryFn: () => api.get(PATHS.analyticsCockpit, CockpitSchema, { query: filter }),
    refetchInterval: 60_000,
  });
}
