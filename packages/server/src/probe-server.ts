import { createServer, type Server } from 'node:http';
import { PATHS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';

const PROBES: ReadonlySet<string> = new Set([PATHS.healthz, PATHS.readyz, PATHS.metrics]);

/**
 * A worker process (`--role worker`) serves no API, web app or `/ws`: only the probes a process
 * manager and Prometheus read — `/healthz`, `/readyz` and `/metrics` (with its token) — answered by
 * the app's own routes through `inject`, so they say exactly what a web process's would. Anything
 * else is 404. Listens on PORT like a web process (give each process on one host its own).
 */
export function listenProbes(app: FastifyInstance, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://probe').pathname;
    if (req.method !== 'GET' || !PROBES.has(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const authorization = req.headers.authorization;
    app
      .inject({ method: 'GET', url: path, headers: authorization ? { authorization } : {} })
      .then((answer) => {
        const type = answer.headers['content-type'];
        res.writeHead(answer.statusCode, type ? { 'content-type': String(type) } : {}).end(answer.rawPayload);
      })
      .catch(() => res.writeHead(500).end());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
