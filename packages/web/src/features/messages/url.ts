import { screenByName } from '@sextant/api';

/** A notification links to its report's detail screen. */
export function reportPath(reportId: string): string {
  return screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(reportId));
}
