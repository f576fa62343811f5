import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { ServerError } from './server-errors.ts';

export { ServerError, UploadFailed } from './server-errors.ts';

export type Server = { url: string; token: string };

const MAX_ANSWER_BYTES = 1024 * 1024;

function endpoint(server: Server, path: string, query?: Record<string, string | undefined>): URL {
  const url = new URL(path, server.url.endsWith('/') ? server.url : `${server.url}/`);
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
  return url;
}

async function readAnswer<T>(res: IncomingMessage, data: z.ZodType<T>): Promise<T> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) throw new ServerError(res.statusCode ?? 0, 'the server answered more than 1 MB');
    chunks.push(chunk);
  }
  const status = res.statusCode ?? 0;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ServerError(status, `the server answered ${status} with something that is not JSON`);
  }
  const envelope = json as { code?: unknown; message?: unknown; data?: unknown };
  if (status < 200 || status >= 300) {
    const reason = typeof envelope.message === 'string' ? envelope.message : 'no reason given';
    const retryAfter = Number(res.headers['retry-after']);
    const wait = Number.isInteger(retryAfter) && retryAfter >= 0 ? retryAfter : null;
    throw new ServerError(status, `the server answered ${status}: ${reason}`, wait);
  }
  const parsed = data.safeParse(envelope.data);
  if (!parsed.success) throw new ServerError(status, `the server's answer is not what this CLI expects (${status})`);
  return parsed.data;
}

/**
 * POSTs a body to the server and reads its `{code, message, data}` answer. The body streams; if the
 * server answers before reading it all (a 413 from the declared size, a 401), that answer wins over
 * the broken pipe that follows.
 */
export function post<T>(
  server: Server,
  path: string,
  body: { stream: Readable; contentType: string } | { json: unknown },
  data: z.ZodType<T>,
  query?: Record<string, string | undefined>,
): Promise<T> {
  const url = endpoint(server, path, query);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { authorization: `Bearer ${server.token}`, accept: 'application/json' };
  const json = 'json' in body ? Buffer.from(JSON.stringify(body.json)) : null;
  if (json) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(json.length);
  } else if ('stream' in body) headers['content-type'] = body.contentType;
  return new Promise<T>((resolve, reject) => {
    let answered = false;
    const req = send(url, { method: 'POST', headers }, (res) => {
      answered = true;
      // Once answered, the rest of the body is of no use: stop sending it and free the connection.
      const done = () => {
        if ('stream' in body) body.stream.destroy();
        req.destroy();
      };
      readAnswer(res, data).then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
    const failed = (error: NodeJS.ErrnoException) => {
      if (answered) return;
      const why = error.code ?? error.message;
      reject(new ServerError(0, `cannot reach ${url.origin} (${why})`));
    };
    req.on('error', failed);
    if (json) req.end(json);
    else if ('stream' in body) {
      pipeline(body.stream, req).catch((error: NodeJS.ErrnoException) => {
        if (answered) return;
        // A local read error (the file vanished) is not the server's fault: say so.
        if (error.syscall === 'open' || error.syscall === 'read') reject(error);
        else failed(error);
        req.destroy();
      });
    }
  });
}
