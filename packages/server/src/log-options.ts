import type { FastifyServerOptions } from 'fastify';

/**
 * pino's JSON lines for log collectors; on a terminal (a newcomer's `npm start`) the same records
 * printed readably by pino-pretty, in pino's worker thread so the request path never formats text.
 */
export function logOptions(stdoutIsTerminal: boolean): FastifyServerOptions['logger'] {
  if (!stdoutIsTerminal) return true;
  return {
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
    },
  };
}
