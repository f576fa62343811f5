import { PATHS } from '@sextant/api';
import type { RiskSearch } from '../url.ts';

export const riskKeys = {
  all: [PATHS.risks] as const,
  list: (search: RiskSearch) => [PATHS.risks, 'list', search] as const,
  headline: (search: RiskSearch) => [PATHS.risks, 'headline', search] as const,
  history: (id: string) => [PATHS.risks, 'history', id] as const,
  treemap: (appId: string, version: string, testType?: number) =>
    [PATHS.risks, 'treemap', appId, version, testType ?? null] as const,
};

/** Only the filters that are set, as the API's query string. */
export const riskQuery = (search: RiskSearch) =>
  Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number | boolean
  >;
