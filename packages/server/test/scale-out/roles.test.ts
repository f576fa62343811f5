import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstMissing, missingPostgres, missingRedis, skipWithout } from '../../../../tools/test-support/machine.ts';
import { SHUTDOWN_REASON } from '../../src/plugins/realtime.ts';
import { FIXTURES, fixtureRepo } from '../reports/pipeline-support.ts';
import { asAdmin } from '../support/empty-server-database.ts';
import { listener, RoleProcess, until } from './processes.ts';

// Two web and two worker processes (`--role web|worker`, README "Operating") on one throw-away
// PostgreSQL database and this machine's Redis, each with a data folder of its own, as on four
// machines: uploads received by web A reach the workers through PostgreSQL (ADR 0006), and each
// worker clones the repository into its own folder.
const PG_SERVER = process.env.PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const noServices = skipWithout(
  'web and worker processes on PostgreSQL and Redis',
  firstMissing(await missingPostgres(PG_SERVER), await missingRedis(REDIS_URL)),
);
const PASSWORD = `roles-${randomBytes(8).toString('hex')}`;
const REPORTS = 20;
const FINAL = (status: string) => status === 'SUCCESS' || status.endsWith('FAIL');

/** The files (not folders) under a process's `uploads` folder. */
function uploadFiles(dataDir: string): string[] {
  const root = join(dataDir, 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

function admin(sql: string): Promise<void> {
  return asAdmin(PG_SERVER, sql);
}

describe.skipIf(noServices)('web and worker processes', () => {
  const dbName = `sx_roles_${randomBytes(6).toString('hex')}`;
  const url = new URL(PG_SERVER);
  url.pathname = `/${dbName}`;
  const dataDirs: string[] = [];
  const repo = fixtureRepo('jacoco');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    REDIS_URL,
    SEXTANT_ADMIN_PASSWORD: PASSWORD,
    SEXTANT_JWT_SECRET: randomBytes(48).toString('base64url'),
    // A killed worker's reports are stale after 6 s and taken over by the other worker's sweeper.
    SEXTANT_REPORT_HEARTBEAT_S: '1',
    SEXTANT_REPO_PATHS: tmpdir(),
    SEXTANT_ROLE: '',
    // On SIGTERM /readyz answers 503 for two seconds before the ports close.
    SEXTANT_SHUTDOWN_DELAY_S: '2',
  };
  const ownFolder = (): NodeJS.ProcessEnv => {
    const dir = mkdtempSync(join(tmpdir(), 'sx-roles-'));
    dataDirs.push(dir);
    return { ...env, SEXTANT_DATA_DIR: dir };
  };
  const webA = new RoleProcess('web', ownFolder());
  const webB = new RoleProcess('web', ownFolder());
  const worker1 = new RoleProcess('worker', ownFolder());
  const worker2 = new RoleProcess('worker', ownFolder());
  const all = [webA, webB, worker1, worker2];

  beforeAll(async () => {
    await admin(`create database ${dbName}`);
    // Started together: one migrates (under the advisory lock), the others find it done.
    await Promise.all(all.map((p) => p.start()));
  }, 240_000);
  afterAll(async () => {
    await Promise.all(all.map((p) => p.stop('SIGKILL')));
    await admin(`drop database if exists ${dbName} with (force)`);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    rmSync(dirname(repo), { recursive: true, force: true });
  }, 60_000);

  it('a worker SIGKILLed mid-job: every report ends SUCCESS once, and both web processes relay every status once, in order', async () => {
    const login = await fetch(`${webA.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const api = async (base: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { data: Record<string, unknown> };
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    // A worker serves no API, only its probes.
    expect((await fetch(`${worker1.base}/api/login`, { method: 'HEAD' })).status).toBe(404);
    expect(await (await fetch(`${worker1.base}/healthz`)).json()).toEqual({ alive: true });
    expect((await fetch(`${worker1.base}/readyz`)).status).toBe(200);

    const onA = await listener(webA.base, token);
    const onB = await listener(webB.base, token);
    const team = await api(webA.base, 'POST', '/api/teams', { name: 'scale-out' });
    await api(webA.base, 'POST', '/api/apps', {
      teamId: team.id,
      name: 'calculator',
      language: 'java',
      repoUrl: repo,
      buildCommand: 'sleep 2',
    });
    const upload = await fetch(`${webA.base}/api/coverage/uploads?app=calculator&commit=head&envType=test&testType=2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: readFileSync(join(FIXTURES, 'jacoco/jacoco.xml')),
    });
    expect(upload.status, await upload.clone().text()).toBeLessThan(300);
    // Kept in PostgreSQL, not in web A's folder (nor anyone's): the workers read it from there.
    expect(uploadFiles(dataDirs[0] as string)).toEqual([]);
    const ids: string[] = [];
    for (let i = 0; i < REPORTS; i++) {
      const report = await api(webA.base, 'POST', '/api/reports', {
        app: 'calculator',
        name: `report ${i}`,
        baseVersion: 'base',
        newVersion: 'head',
        envType: 'test',
        testType: 2,
        coverageType: 'incremental',
      });
      ids.push(report.id as string);
    }

    // Each worker runs at most two reports (SEXTANT_REPORT_CONCURRENCY 2): with three in a running
    // step at once, worker 1 holds at least one of them when it is killed.
    const running = () =>
      ids
        .filter((id) => !['', 'QUEUED'].includes(onB.statusesOf(id).at(-1) ?? ''))
        .filter((id) => !FINAL(onB.statusesOf(id).at(-1) ?? ''));
    await until('three reports running', async () => (running().length >= 3 ? true : undefined), 180_000);
    expect(await worker1.stop('SIGKILL')).toBeNull();

    await until(
      'every report to end',
      async () =>
        ids.every((id) => FINAL(onA.statusesOf(id).at(-1) ?? '') && FINAL(onB.statusesOf(id).at(-1) ?? ''))
          ? true
          : undefined,
      300_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- worker 2:\n${worker2.log().slice(-5000)}`);
    });

    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const { rows: states } = await db.query<{ id: string; status: string; run: number }>(
        'select id, status, run from reports where id = any($1) order by id',
        [ids],
      );
      expect(states.map((r) => r.status)).toEqual(ids.map(() => 'SUCCESS'));
      for (const id of ids) {
        const { rows: stored } = await db.query<{ id: string; status: string }>(
          'select id, status from messages where report_id = $1 order by seq',
          [id],
        );
        expect(
          stored.filter((m) => m.status === 'SUCCESS'),
          id,
        ).toHaveLength(1);
        expect(stored.at(-1)?.status, id).toBe('SUCCESS');
        // Nothing lost, nothing twice, in order, through either web process.
        const seen = `stored ${stored.map((m) => m.status)}; A ${onA.statusesOf(id)}; B ${onB.statusesOf(id)}`;
        expect(onA.idsOf(id), `report ${id} on web A: ${seen}`).toEqual(stored.map((m) => m.id));
        expect(onB.idsOf(id), `report ${id} on web B: ${seen}`).toEqual(stored.map((m) => m.id));
      }
      const { rows: duplicates } = await db.query(
        `select report_id, name, kind, file_path, start_line from report_details where report_id = any($1)
         group by report_id, name, kind, file_path, start_line having count(*) > 1`,
        [ids],
      );
      expect(duplicates).toEqual([]);
      const { rows: counted } = await db.query<{ n: number }>(
        'select count(distinct report_id)::int as n from report_details where report_id = any($1)',
        [ids],
      );
      expect(counted[0]?.n).toBe(REPORTS);
      const { rows: kept } = await db.query<{ storage: string; chunks: number }>(
        'select storage, (select count(*)::int from upload_blobs b where b.upload_id = u.id) as chunks from coverage_uploads u',
      );
      expect(kept).toEqual([{ storage: 'database', chunks: 1 }]);
    } finally {
      await db.end();
    }
    // The kill was mid-job: a report worker 1 held went through a step again on worker 2 (which step
    // depends on where the kill fell).
    const steppedAgain = (id: string) => new Set(onB.statusesOf(id)).size < onB.statusesOf(id).length;
    expect(ids.filter(steppedAgain).length, ids.map((id) => onB.statusesOf(id).join(' ')).join('\n')).toBeGreaterThan(
      0,
    );

    // No folder holds an upload (they are in PostgreSQL), and each worker cloned the repository into its
    // own folder: worker 2, which finished the reports, holds one mirror; worker 1 holds one at most, as
    // the kill may fall before its first clone (and a kill while it held the mirror's lock leaves
    // `<app>.git.lock`, which the next process takes over).
    for (const [i, dir] of dataDirs.entries()) expect(uploadFiles(dir), `process ${i}'s folder`).toEqual([]);
    const mirrors = (dir: string) =>
      existsSync(join(dir, 'repos')) ? readdirSync(join(dir, 'repos')).filter((name) => name.endsWith('.git')) : [];
    expect(mirrors(dataDirs[3] as string)).toHaveLength(1);
    expect(mirrors(dataDirs[2] as string).length).toBeLessThanOrEqual(1);

    // Graceful shutdown: web B answers not ready at once, tells its STOMP client to connect again,
    // then exits 0; so does worker 2.
    const stopping = webB.stop('SIGTERM');
    const notReady = await until(
      'web B not ready',
      async () => {
        const res = await fetch(`${webB.base}/readyz`).catch(() => null);
        return res?.status === 503 ? ((await res.json()) as { checks: { shutdown?: unknown } }) : undefined;
      },
      10_000,
    );
    expect(notReady.checks.shutdown).toEqual({ ok: false, detail: 'shutting down' });
    expect(await stopping).toBe(0);
    await until('the ERROR frame and close on B', async () => (onB.closed() ? true : undefined), 10_000);
    expect(onB.errors.map((f) => f.headers.message)).toEqual([SHUTDOWN_REASON]);
    expect(await worker2.stop('SIGTERM')).toBe(0);
    await onA.client.deactivate();
  }, 600_000);
});
