import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A Host header we are willing to repeat in a header: a name or address and an optional port. */
const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The web app's policy (issue 32, finding 8): its own scripts only, no inline or evaluated script,
 * no third-party origin, never framed, no plugins, no `<base>` change, and Trusted Types: the one
 * policy allowed, the web app's `default` (packages/web/src/lib/trusted-types.ts), lets through
 * only HTML without markup (Ant Design writes its style sheets with innerHTML, ECharts empties its
 * container so) and no script at all (checked in Chromium, `e2e/csp.e2e.ts`). Styles allow
 * 'unsafe-inline' alone: Ant Design's CSS-in-JS writes `<style>` elements at run time and its
 * components set `style` attributes; a nonce would have to be given to every page load's script
 * (so script injection could read it) and does not cover style attributes. Injected CSS cannot run
 * script, and the token in localStorage is out of its reach.
 *
 * The trace viewer (specification point 2: this host, port 5173) may be framed by the app; the
 * socket at /ws is named explicitly for browsers that do not count ws: as 'self'. `framed` is the one
 * more origin /zentao may frame: ZenTao's, as an administrator set it (issue 35).
 */
export function appPolicy(req: FastifyRequest, traceViewerPort: number, framed: string | null = null): string {
  const host = req.headers.host && PLAIN_HOST.test(req.headers.host) ? req.headers.host : null;
  const hostname = host?.replace(/:\d+$/, '') ?? null;
  const sockets = host ? ` ws://${host} wss://${host}` : '';
  const viewer = hostname ? ` http://${hostname}:${traceViewerPort} https://${hostname}:${traceViewerPort}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "worker-src 'self' blob:",
    `frame-src 'self'${viewer}${framed ? ` ${framed}` : ''}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "require-trusted-types-for 'script'",
    'trusted-types default',
  ].join('; ');
}

/** JSON answers are never rendered as a page: nothing may load from them, nothing may frame them. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Swagger UI at /api/docs: its own scripts and styles, images from data: URLs. */
export const DOCS_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'";

/** Every answer gets a Content-Security-Policy: the app's, the API docs' or the API's. */
export function registerContentSecurity(
  app: FastifyInstance,
  traceViewerPort: number,
  framedOrigin: () => Promise<string | null> = async () => null,
): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const path = req.url.split('?')[0] ?? '';
    const policy = path.startsWith('/api/docs')
      ? DOCS_POLICY
      : path === '/api' || path.startsWith('/api/') || path === '/ws'
        ? API_POLICY
        : appPolicy(req, traceViewerPort, await framedOrigin().catch(() => null));
    reply.header('content-security-policy', policy);
    return payload;
  });
}
