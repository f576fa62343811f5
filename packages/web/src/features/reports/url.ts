import { DETAIL_SORTS, REPORT_SORTS, screenByName } from '@sextant/api';
import type { DetailQuery } from './api/get-report-details.ts';
import type { ReportSearch } from './api/search-reports.ts';

type Sort = (typeof REPORT_SORTS)[number];
type DetailSort = (typeof DETAIL_SORTS)[number];

/** Path of one report's detail screen, its source view and its edit form. */
export const reportDetailPath = (id: string) =>
  screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));
export const reportSourcePath = (id: string, file?: string) =>
  screenByName('dashboard-code-coverage-view').path.replace(':id', encodeURIComponent(id)) +
  (file ? `?file=${encodeURIComponent(file)}` : '');
export const reportEditPath = (id: string) =>
  screenByName('dashboard-coverage-edit').path.replace(':id', encodeURIComponent(id));
export const reportAddPath = (testType: 1 | 2) => `${screenByName('dashboard-coverage-add').path}?testType=${testType}`;
export const reportListScreen = (testType: 1 | 2) =>
  screenByName(testType === 1 ? 'dashboard-dev-coverage' : 'dashboard-test-coverage');
export const reportListPath = (testType: 1 | 2) => reportListScreen(testType).path;

/** The list's filters, sort and page live in the URL so every view is a link (defaults of point 9). */
export function readReportSearch(params: URLSearchParams, testType: 1 | 2): ReportSearch {
  const sortBy = params.get('sortBy');
  const number = (key: string, fallback: number) => {
    const n = Number(params.get(key));
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return {
    testType,
    appName: params.get('appName') ?? undefined,
    newVersion: params.get('newVersion') ?? undefined,
    envType: params.get('envType') ?? undefined,
    page: number('page', 1),
    perPage: number('perPage', 10),
    sortBy: (REPORT_SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as Sort) : 'lineCoverage',
    sortDesc: params.get('sortDesc') === 'true',
  };
}

export function writeReportSearch(search: ReportSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['appName', 'newVersion', 'envType'] as const) {
    const value = search[key];
    if (value) params.set(key, value);
  }
  if (search.page && search.page !== 1) params.set('page', String(search.page));
  if (search.perPage && search.perPage !== 10) params.set('perPage', String(search.perPage));
  if (search.sortBy && search.sortBy !== 'lineCoverage') params.set('sortBy', search.sortBy);
  if (search.sortDesc) params.set('sortDesc', 'true');
  return params;
}

/** Class rows per fetch as the detail table scrolls (issue 41), unless `?perPage=` asks for more. */
const DETAIL_PER_PAGE = 200;

/** The report detail's class filters, sort and page live in the URL as the lists' do: every view is a link. */
export function readDetailQuery(params: URLSearchParams): DetailQuery {
  const sortBy = params.get('sortBy');
  const page = Number(params.get('page'));
  const perPage = Number(params.get('perPage'));
  const q = params.get('q')?.trim();
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    perPage: Number.isInteger(perPage) && perPage > 0 ? Math.min(perPage, 100_000) : DETAIL_PER_PAGE,
    sortBy: (DETAIL_SORTS as readonly string[]).includes(sortBy ?? '') ? (sortBy as DetailSort) : 'name',
    sortDesc: params.get('sortDesc') === 'true',
    changedOnly: params.get('changedOnly') === 'true' || undefined,
    uncoveredOnly: params.get('uncoveredOnly') === 'true' || undefined,
    q: q || undefined,
  };
}

export function writeDetailQuery(query: DetailQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.changedOnly) params.set('changedOnly', 'true');
  if (query.uncoveredOnly) params.set('uncoveredOnly', 'true');
  if (query.q) params.set('q', query.q);
  if (query.page && query.page !== 1) params.set('page', String(query.page));
  if (query.perPage && query.perPage !== DETAIL_PER_PAGE) params.set('perPage', String(query.perPage));
  if (query.sortBy && query.sortBy !== 'name') params.set('sortBy', query.sortBy);
  if (query.sortDesc) params.set('sortDesc', 'true');
  return params;
}
