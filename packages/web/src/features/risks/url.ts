import { RISK_KINDS, RISK_SORTS, RISK_STATES, type RiskListQuery, screenByName } from '@sextant/api';

export type RiskSearch = Partial<Omit<RiskListQuery, 'state' | 'ids'>> & { state?: string };

const TEXT_KEYS = ['teamId', 'appId', 'projectId', 'version', 'author'] as const;

/** A risk list's filters, sort and page from the URL, so every view is a link (issue 34). */
export function readRiskSearch(params: URLSearchParams, defaults: RiskSearch = {}): RiskSearch {
  const search: RiskSearch = { ...defaults };
  for (const key of TEXT_KEYS) {
    const value = params.get(key);
    if (value) search[key] = value;
  }
  const testType = params.get('testType');
  if (testType === '1' || testType === '2') search.testType = Number(testType) as 1 | 2;
  const kind = params.get('kind');
  if ((RISK_KINDS as readonly string[]).includes(kind ?? '')) search.kind = kind as RiskSearch['kind'];
  const state = params.get('state');
  if (state?.split(',').every((s) => (RISK_STATES as readonly string[]).includes(s))) search.state = state;
  const sortBy = params.get('sortBy');
  if ((RISK_SORTS as readonly string[]).includes(sortBy ?? '')) search.sortBy = sortBy as RiskSearch['sortBy'];
  if (params.get('sortDesc') === 'false') search.sortDesc = false;
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page > 1) search.page = page;
  return search;
}

export function writeRiskSearch(search: RiskSearch, defaults: RiskSearch = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === '' || (defaults as Record<string, unknown>)[key] === value) continue;
    if (key === 'page' && value === 1) continue;
    if (key === 'sortDesc' && value === true) continue;
    if (key === 'sortBy' && value === 'severity') continue;
    params.set(key, String(value));
  }
  return params;
}

/** The method in the report's source view, at its lines (specification point 2: /codecoverage/{id}). */
export function riskSourcePath(item: { reportId: string; filePath: string; startLine: number | null }): string {
  const base = screenByName('dashboard-code-coverage-view').path.replace(':id', encodeURIComponent(item.reportId));
  const line = item.startLine ? `&line=${item.startLine}` : '';
  return `${base}?file=${encodeURIComponent(item.filePath)}${line}`;
}
