import { RISK_PATHS } from '@sextant/api';
import type { RiskSearch } from '../url.ts';

export const riskKeys = {
  all: [RISK_PATHS.list] as const,
  list: (search: RiskSearch) => [RISK_PATHS.list, 'list', search] as const,
  headline: (search: RiskSearch) => [RISK_PATHS.list, 'headline', search] as const,
  history: (id: string) => [RISK_PATHS.list, 'history', id] as const,
};

/** Only the filters that are set, as the API's query string. */
export const riskQuery = (search: RiskSearch) =>
  Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number | boolean
  >;
