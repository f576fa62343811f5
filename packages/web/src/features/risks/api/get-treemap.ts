import { PATHS, RiskTreemapSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { riskKeys } from './risk-keys.ts';

/** GET /api/risks/treemap: the changed methods of an app version's latest report (only once both are chosen). */
export function useRiskTreemap(appId: string | undefined, version: string | undefined, testType: number | undefined) {
  return useQuery({
    queryKey: riskKeys.treemap(appId ?? '', version ?? '', testType),
    enabled: Boolean(appId && version),
    queryFn: async () =>
      api.get(PATHS.riskTreemap, RiskTreemapSchema, {
        query: { appId: appId ?? '', version: version ?? '', ...(testType ? { testType } : {}) },
      }),
  });
}
