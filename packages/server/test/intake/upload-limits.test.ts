import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { uploadQuery, useIntakeApp } from './support.ts';

const LIMIT = 4096;
const SMALL_LCOV = 'TN:\nSF:src/a.js\nDA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n';

type Answer = { status: number; body: { code: number; message: string; data: unknown } };

/** A real HTTP exchange: the body is written by the test as it likes (declared length, chunked). */
function send(
  port: number,
  path: string,
  headers: Record<string, string>,
  write: (req: ReturnType<typeof request>) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    // The server may close its side once it has answered: that is the point of an early refusal.
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e);
    });
    write(req);
  });
}

describe('upload size limits over a real connection', () => {
  const t = useIntakeApp({ uploadLimitBytes: LIMIT });
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  const path = () =>
    `/api/coverage/uploads?${uploadQuery({ app: 'checkout', commit: 'main', envType: 'test', testType: 2 })}`;
  const auth = () => ({ authorization: `Bearer ${t.checkout.token}` });
  const rowCount = async () => Number((await t.db.execute(sql`select count(*) as n from coverage_uploads`)).rows[0]?.n);

  it('refuses a declared 2 GB upload at once, having read almost nothing', async () => {
    const started = Date.now();
    const answer = await send(
      port,
      path(),
      { ...auth(), 'content-type': 'application/gzip', 'content-length': String(2 * 1024 ** 3) },
      (req) => req.write(Buffer.alloc(1024)),
    );
    expect(answer).toMatchObject({ status: 413, body: { code: 413, data: { error: 'payload-too-large' } } });
    expect(answer.body.message).toBe(`A coverage upload may hold at most ${LIMIT} bytes.`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await rowCount()).toBe(0);
  });

  it('stops a chunked body once it passes the limit and keeps nothing of it', async () => {
    const answer = await send(
      port,
      path(),
      { ...auth(), 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      (req) => {
        for (let i = 0; i < 10; i++) req.write(SMALL_LCOV.repeat(20));
        req.end();
      },
    );
    expect(answer).toMatchObject({ status: 413, body: { data: { error: 'payload-too-large' } } });
    expect(await rowCount()).toBe(0);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  });

  it('stops a multipart file past the limit the same way', async () => {
    const boundary = 'limit-boundary';
    const body = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.info"\r\n\r\n` +
        `${SMALL_LCOV.repeat(200)}\r\n--${boundary}--\r\n`,
    );
    const answer = await send(
      port,
      path(),
      { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      (req) => req.end(body),
    );
    expect(answer).toMatchObject({ status: 413, body: { data: { error: 'payload-too-large' } } });
    expect(await rowCount()).toBe(0);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  });

  it('takes a chunked body under the limit', async () => {
    const answer = await send(
      port,
      path(),
      { ...auth(), 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      (req) => req.end(SMALL_LCOV),
    );
    expect(answer).toMatchObject({ status: 201, body: { data: { format: 'lcov', files: 1, unmappedFiles: [] } } });
    expect(await rowCount()).toBe(1);
    expect(t.storedFiles(t.checkout.id)).toHaveLength(1);
  });
});
