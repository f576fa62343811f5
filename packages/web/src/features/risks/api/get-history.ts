import { PATHS, pathTo, RiskHistorySchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { riskKeys } from './risk-keys.ts';

/** GET /api/risks/:id/history: the item's transitions. */
export function useRiskHistory(id: string | null) {
  return useQuery({
    queryKey: riskKeys.history(id ?? ''),
    queryFn: async () => api.get(pathTo(PATHS.riskHistory, { id: id ?? '' }), RiskHistorySchema),
    enabled: id !== null,
  });
}
