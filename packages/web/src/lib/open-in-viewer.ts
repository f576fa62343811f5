import { NoDataSchema, PATHS, traceViewerLink } from '@sextant/api';
import { api } from './session.tsx';

/**
 * Opens a trace in the viewer (its own port, specification point 2): first the session is handed
 * to that port as a cookie (POST /api/traces/viewer-session, refreshed here if it had expired), then
 * the page opens in a new tab. The tab is opened first so the browser counts it as the click's.
 */
export async function openInViewer(viewerUrl: string, traceId: string, appId: string, lang: string): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  await api.post(PATHS.traceViewerSession, NoDataSchema, {});
  // The app's own address travels along: the viewer links spans' methods back to coverage reports here.
  const from = encodeURIComponent(window.location.origin);
  const link = `${traceViewerLink(viewerUrl, window.location, traceId, appId)}&lang=${lang}&from=${from}`;
  if (tab) {
    tab.opener = null;
    tab.location.href = link;
  } else window.location.assign(link);
}
