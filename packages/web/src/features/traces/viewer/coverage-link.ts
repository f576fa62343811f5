import { screenByName, type TraceSpan } from '@sextant/api';

type Coverage = NonNullable<NonNullable<TraceSpan['code']>['coverage']>;

/**
 * The app the viewer links back to. The viewer has its own port (specification point 2), so the
 * app's address travels in the viewer link (`from`, set by the app); it is followed only on this
 * host (another port), so a crafted link cannot send a reader elsewhere. Otherwise: this host.
 */
export function appOrigin(from: string | null, here: { protocol: string; hostname: string }): string {
  try {
    const url = new URL(from ?? '');
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === here.hostname) return url.origin;
  } catch {
    // Not a URL: this host.
  }
  return `${here.protocol}//${here.hostname}`;
}

/** A span's method in its coverage report's source view, at its first line (`/codecoverage/{reportId}`). */
export function coverageHref(origin: string, coverage: Coverage): string {
  const path = screenByName('dashboard-code-coverage-view').path.replace(':id', encodeURIComponent(coverage.reportId));
  const params = new URLSearchParams();
  if (coverage.filePath) params.set('file', coverage.filePath);
  if (coverage.line !== null) params.set('line', String(coverage.line));
  const query = params.toString();
  return `${origin}${path}${query ? `?${query}` : ''}`;
}
