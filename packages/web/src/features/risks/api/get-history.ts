import { RISK_PATHS, RiskHistorySchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import { riskKeys } from './risk-keys.ts';

/** GET /api/risks/:id/history: the item's transitions. */
export function useRiskHistory(id: string | null) {
  return useQuery({
    queryKey: riskKeys.history(id ?? ''),
    queryFn: async () =>
      RiskHistorySchema.parse(await api.get<unknown>(RISK_PATHS.history.replace(':id', encodeURIComponent(id ?? '')))),
    enabled: id !== null,
  });
}
