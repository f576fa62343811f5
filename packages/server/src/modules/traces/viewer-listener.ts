import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { PATHS, TRACE_VIEWER_COOKIE, VIEWER_PATHS } from '@sextant/api';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { API_POLICY, appPolicy } from '../../plugins/content-security.ts';

/** The calls the viewer makes, each a GET of trace data (ids are 32 hex digits); nothing else passes. */
const VIEWER_CALLS = [PATHS.trace].map(
  (pattern) => new RegExp(`^${pattern.replace(':traceId', '[0-9a-f]{32}')}(\\?.*)?$`),
);

function cookieOf(req: FastifyRequest, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || null;
  }
  return null;
}

export type TraceViewerOptions = { webDist: string; port: number };

/**
 * The trace viewer's own listener in the server process (specification point 2: port 5173): the
 * viewer page of the web build (`trace.html`, its own entry) and the trace calls it makes, answered
 * by the app itself (`inject`, so every permission check runs as on the main port) with the session
 * the app handed over in the viewer cookie (viewer-routes.ts).
 */
export async function buildTraceViewer(app: FastifyInstance, opts: TraceViewerOptions): Promise<FastifyInstance> {
  const viewer = Fastify({ logger: false, trustProxy: false });
  const page = join(opts.webDist, 'trace.html');
  if (existsSync(page)) await viewer.register(fastifyStatic, { root: opts.webDist, wildcard: false, index: false });
  viewer.addHook('onSend', async (req, reply, payload) => {
    const api = req.url.startsWith('/api/');
    reply.header('content-security-policy', api ? API_POLICY : appPolicy(req, opts.port));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    return payload;
  });
  viewer.get(VIEWER_PATHS.trace, (_req, reply) => {
    if (!existsSync(page))
      return reply.status(503).type('text/plain').send('The web app is not built (npm run build).');
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('trace.html');
  });
  viewer.get(VIEWER_PATHS.api, async (req, reply) => {
    if (!VIEWER_CALLS.some((call) => call.test(req.url))) {
      return reply.status(404).send({ code: 404, message: 'Not a trace viewer call.', data: { error: 'not-found' } });
    }
    const token = cookieOf(req, TRACE_VIEWER_COOKIE);
    const answer = await app.inject({
      method: 'GET',
      url: req.url,
      headers: token ? { authorization: `Bearer ${token}`, host: req.headers.host ?? '' } : {},
    });
    return reply
      .status(answer.statusCode)
      .type(String(answer.headers['content-type'] ?? 'application/json'))
      .send(answer.rawPayload);
  });
  return viewer;
}

/** Starts the viewer beside the app; a taken port is logged, not fatal (the dashboard still serves). */
export async function listenTraceViewer(
  app: FastifyInstance,
  opts: TraceViewerOptions & { host: string },
): Promise<FastifyInstance | null> {
  const viewer = await buildTraceViewer(app, opts);
  try {
    await viewer.listen({ port: opts.port, host: opts.host });
    app.log.info(`trace viewer listening on ${opts.host}:${opts.port}`);
    return viewer;
  } catch (error) {
    app.log.error({ err: error }, `trace viewer: cannot listen on port ${opts.port}`);
    await viewer.close();
    return null;
  }
}
