import { PATHS, RiskHeadlineSchema } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/session.tsx';
import type { RiskSearch } from '../url.ts';
import { riskKeys, riskQuery } from './risk-keys.ts';

/** GET /api/risks/headline: open, new and resolved this week, the oldest open. */
export function useRiskHeadline(search: RiskSearch) {
  // The figures count every state (open, resolved this week): the list's state filter is not theirs.
  const { page: _page, sortBy: _sortBy, sortDesc: _sortDesc, state: _state, ...filters } = search;
  return useQuery({
    queryKey: riskKeys.headline(filters),
    queryFn: async () => api.get(PATHS.riskHeadline, RiskHeadlineSchema, { query: riskQuery(filters) }),
  });
}
