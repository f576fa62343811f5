import { envelopeSchema, NoDataSchema, PATHS, TRACE_VIEWER_COOKIE } from '@sextant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Seconds until the JWT's `exp` (already verified by the access plugin), at least one. */
function secondsLeft(token: string, nowMs: number): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: number;
    };
    return Math.max(1, Math.floor((payload.exp ?? 0) - nowMs / 1000));
  } catch {
    return 1;
  }
}

function bearerOf(req: FastifyRequest): string {
  return req.headers.authorization?.match(/^Bearer (\S+)$/)?.[1] ?? '';
}

/**
 * The trace viewer lives on its own port (specification point 2), another origin to the browser,
 * so it cannot read the app's localStorage; cookies, though, belong to the host whatever the port.
 * The app calls this before opening a trace: the caller's current access token is copied into an
 * HttpOnly, SameSite=Strict cookie that expires with the token. Only the viewer's listener reads
 * it (viewer-listener.ts), and that listener answers GETs of trace data only, so a cookie sent
 * along with a cross-site form cannot change anything.
 */
export function traceViewerSessionRoute(app: FastifyInstance, now: () => number = Date.now): void {
  app.withTypeProvider<ZodTypeProvider>().post(PATHS.traceViewerSession, {
    config: { access: { action: 'read', resource: 'Trace' } },
    schema: {
      tags: ['traces'],
      description: "Gives the trace viewer's port the caller's session (an HttpOnly cookie, expiring with the token).",
      response: { 200: envelopeSchema(NoDataSchema) },
    },
    handler: async (req, reply) => {
      const token = bearerOf(req);
      const secure = req.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${TRACE_VIEWER_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${secondsLeft(token, now())}${secure}`,
      );
      return { code: 200, message: 'OK', data: null };
    },
  });
}
