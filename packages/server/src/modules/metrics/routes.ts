import { timingSafeEqual } from 'node:crypto';
import { PATHS } from '@sextant/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Instruments } from './registry.ts';

/**
 * `GET /metrics` in Prometheus' text format, for a scraper holding `SEXTANT_METRICS_TOKEN` (Bearer);
 * without a configured token the route answers 404, so nothing about the process is exposed by default.
 */
export function metricsRoutes(app: FastifyInstance, instruments: Instruments, token: string | undefined): void {
  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions.url;
    if (!route || route === PATHS.metrics) return;
    instruments.requestSeconds.observe(
      { method: req.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get(PATHS.metrics, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    if (!token) return reply.code(404).send({ code: 404, message: 'Metrics are off (set SEXTANT_METRICS_TOKEN).' });
    if (!bearerMatches(req.headers.authorization, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ code: 401, message: 'Wrong metrics token.' });
    }
    return reply.type(instruments.registry.contentType).send(await instruments.registry.metrics());
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
