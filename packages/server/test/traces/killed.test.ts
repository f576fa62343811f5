import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { emptyServerDatabase } from '../support/empty-server-database.ts';

/** The OTLP ingest bench's server process (seeds an app, listens, tells its port and the app's token). */
const SERVER = new URL('../../../../bench/otlp-ingest-server.ts', import.meta.url).pathname;
const SENDERS = 8;
const EXPORTS = 64;
const SPANS = 50;
/** The server is killed as soon as this many exports have been answered 200. */
const KILL_AFTER = 12;

/** Export `n`: SPANS spans of one trace, ids derived from n, started a second ago. */
function exportOf(n: number): { body: string; spanIds: string[] } {
  const startNs = BigInt(Date.now() - 1000) * 1_000_000n;
  const traceId = (n + 1).toString(16).padStart(32, '0');
  const spanIds = Array.from({ length: SPANS }, (_, i) => ((n + 1) * 1000 + i).toString(16).padStart(16, '0'));
  const spans = spanIds.map((spanId) => ({
    traceId,
    spanId,
    name: 'GET /x',
    kind: 2,
    startTimeUnixNano: startNs.toString(),
    endTimeUnixNano: (startNs + 1_000_000n).toString(),
    attributes: [{ key: 'http.route', value: { stringValue: '/x' } }],
  }));
  const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'killed' } }] };
  return { body: JSON.stringify({ resourceSpans: [{ resource, scopeSpans: [{ spans }] }] }), spanIds };
}

/** Where the server process keeps its spans: a PGlite folder, or a fresh PostgreSQL database under DATABASE_URL. */
async function freshTarget(): Promise<{ target: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = mkdtempSync(join(tmpdir(), 'sx-killed-'));
    return { target: join(dir, 'pg'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database = await emptyServerDatabase(url, 'sx_killed');
  return { target: database.url, drop: database.drop };
}

describe('nothing answered 200 is lost when the server process is killed (issue 36)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('finds every span of every export answered 200 before a SIGKILL stored after it', async () => {
    const { target, drop } = await freshTarget();
    cleanups.push(drop);
    const child = fork(SERVER, [target], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    const { port, token } = await new Promise<{ port: number; token: string }>((resolve) =>
      child.once('message', (m) => resolve(m as { port: number; token: string })),
    );
    const exports = Array.from({ length: EXPORTS }, (_, n) => exportOf(n));
    const accepted: string[] = [];
    let next = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (!killed && next < exports.length) {
          const sent = exports[next++] as (typeof exports)[number];
          const res = await fetch(`http://127.0.0.1:${port}/v1/traces`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: sent.body,
          }).catch(() => null);
          // A 200 read after the kill was sent was still written by the server before it died: it counts.
          if (res?.status !== 200) continue;
          accepted.push(...sent.spanIds);
          if (!killed && accepted.length >= KILL_AFTER * SPANS) {
            killed = true;
            child.kill('SIGKILL');
          }
        }
      }),
    );
    await exited;
    expect(child.signalCode).toBe('SIGKILL');
    expect(accepted.length).toBeGreaterThanOrEqual(KILL_AFTER * SPANS);

    const database = await openDatabase(target.startsWith('/') ? { pgliteDir: target } : { url: target });
    try {
      const stored = await database.db.execute<{ span_id: string }>(sql`select span_id from spans`);
      const ids = new Set(stored.rows.map((r) => r.span_id));
      expect(accepted.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await database.close();
    }
    // A child server migrates and seeds its own database first: slow on a loaded machine.
  }, 300_000);
});
