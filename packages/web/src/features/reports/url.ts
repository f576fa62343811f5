import { REPORT_SORTS, screenByName } from '@sextant/api';
import type { ReportSearch } from './api/search-reports.ts';

type Sort = (typeof REPORT_SORTS)[number];

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
