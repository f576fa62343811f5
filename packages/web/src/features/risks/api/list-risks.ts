import { PATHS, RiskPageSchema } from '@sextant/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import type { RiskSearch } from '../url.ts';
import { riskKeys, riskQuery } from './risk-keys.ts';

/** GET /api/risks: one page of risk items, filtered and sorted by the server. */
export async function listRisks(search: RiskSearch) {
  return api.get(PATHS.risks, RiskPageSchema, { query: riskQuery(search) });
}

export const listRisksOptions = (search: RiskSearch) =>
  queryOptions({
    queryKey: riskKeys.list(search),
    queryFn: () => listRisks(search),
    placeholderData: keepPreviousData,
  });

export function useRisks(search: RiskSearch, enabled = true) {
  return useQuery({ ...listRisksOptions(search), enabled });
}
