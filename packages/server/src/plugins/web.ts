import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const MISSING = `<!doctype html><meta charset="utf-8"><title>Sextant</title>
<p>The web app is not built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it when missing).</p>`;

function isApi(url: string): boolean {
  return (
    url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') || url === '/ws' || url.startsWith('/ws?')
  );
}

/** Serves the built SPA; any other GET outside /api and /ws falls back to index.html. */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasDist = existsSync(join(webDist, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  }
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    return payload;
  });
  app.setNotFoundHandler((req, reply) => {
    if (req.method !== 'GET' || isApi(req.url)) {
      return reply
        .status(404)
        .send({ code: 404, message: `No route ${req.method} ${req.url}`, data: { error: 'not-found' } });
    }
    // A missing hashed asset (an older build's chunk) must fail as such, so the lazy loader can say so.
    if (req.url.startsWith('/assets/')) return reply.status(404).type('text/plain').send('Not found');
    if (!hasDist) return reply.status(503).type('text/html').send(MISSING);
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
