import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runCli } from '@sextant/cli';
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

  /** A raw connection sending an upload with a wrong token, and the server's whole 401, read before any body. */
  async function refusedUpload() {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const written = (data: string | Buffer) =>
      new Promise<void>((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));
    const head = 'authorization: Bearer wrong\r\ncontent-type: application/gzip\r\ntransfer-encoding: chunked';
    await written(`POST ${path()} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}\r\n\r\n`);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        const length = /content-length: (\d+)/i.exec(text);
        const bodyAt = text.indexOf('\r\n\r\n') + 4;
        if (length && bodyAt >= 4 && text.length - bodyAt >= Number(length[1])) resolve(text);
      });
    });
    const data = randomBytes(64 * 1024);
    const chunk = Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
    return { socket, written, answer, chunk };
  }

  it('reads and drops what a refused client still sends after the answer, rather than resetting it', async () => {
    const rowsBefore = await rowCount();
    const { socket, written, answer, chunk } = await refusedUpload();
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    // Like a CLI whose file is still streaming: 1 MB more, each write after the last one reached the kernel.
    // Closing at once would make the server's side reset the connection, and these writes fail (EPIPE).
    try {
      for (let i = 0; i < 16; i++) await written(chunk);
      await written('0\r\n\r\n');
    } finally {
      socket.destroy();
    }
    expect(await rowCount()).toBe(rowsBefore);
  });

  it('closes a refused connection whose body never ends, a while after the answer', async () => {
    const { socket, written, chunk } = await refusedUpload();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let accepted = 0;
    try {
      while (!socket.destroyed) {
        await written(chunk);
        accepted += chunk.length;
      }
    } catch {
      // The server closed the connection: what this test waits for.
    }
    await closed;
    expect(accepted).toBeGreaterThan(1024 * 1024);
  });

  it('sextant upload reports the 413 the server sends while the file is still streaming', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sx-cli-limit-'));
    try {
      // Random bytes do not compress: the body stays ~256 KB on the wire, far past the 4 KB limit.
      writeFileSync(join(dir, 'big.info.gz'), gzipSync(randomBytes(256 * 1024)));
      // Connections the earlier tests' clients keep alive (their bodies were read to the end) stay open.
      const connections = () => new Promise<number>((r) => t.app.server.getConnections((_e, n) => r(n)));
      const idle = await connections();
      const err: string[] = [];
      const io = { cwd: dir, stdout: () => {}, stderr: (s: string) => err.push(s), colour: false };
      const args = ['upload', 'big.info.gz', '--server', `http://127.0.0.1:${port}`, '--token', t.checkout.token];
      const code = await runCli(
        [...args, '--app', 'checkout', '--commit', 'c', '--env', 'test', '--test-type', '2'],
        io,
      );
      expect(code).toBe(1);
      expect(err.join('')).toBe(
        `sextant upload: big.info.gz: the server answered 413: A coverage upload may hold at most ${LIMIT} bytes.\n`,
      );
      // Neither side waits for the rest of the body: the CLI's connection is gone (it once lingered ~70 s).
      const deadline = Date.now() + 5000;
      while ((await connections()) > idle && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(await connections()).toBeLessThanOrEqual(idle);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
