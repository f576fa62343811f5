import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '@sextant/cli/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { reportDetails, reports } from '../../src/db/schema/index.ts';
import { emptyServerDatabase } from '../support/empty-server-database.ts';
import { FIXTURES, fixtureRepo } from './pipeline-support.ts';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const PASSWORD = 'restart-admin-password';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The real server process (`node --import tsx packages/server/src/main.ts`), as `npm start` runs it. */
class ServerProcess {
  private child: ChildProcess | null = null;
  private log = '';
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly base: string,
  ) {}

  async start(): Promise<void> {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
      cwd: ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString()).slice(-20_000);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    const child = this.child;
    await until(
      'the server to answer',
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${this.log}`);
        return fetch(`${this.base}/api/login`, { method: 'HEAD' }).then(
          () => true,
          () => undefined,
        );
      },
      90_000,
    );
  }

  /** Ends the process the given way and waits for it to be gone. */
  async stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.child = null;
  }

  output(): string {
    return this.log;
  }
}

describe('a report job survives the server being killed mid-step', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('SIGKILL during COMPILING; after a restart the report reaches SUCCESS with no duplicate rows', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sx-restart-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const repo = fixtureRepo('jacoco');
    cleanups.push(() => rmSync(dirname(repo), { recursive: true, force: true }));

    // On PostgreSQL (npm run test:pg) a throw-away database; otherwise PGlite under the data dir.
    let databaseUrl: string | undefined;
    if (process.env.DATABASE_URL) {
      const database = await emptyServerDatabase(process.env.DATABASE_URL, 'sx_restart');
      databaseUrl = database.url;
      cleanups.push(database.drop);
    }

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = new ServerProcess(
      {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEXTANT_DATA_DIR: dataDir,
        SEXTANT_ADMIN_PASSWORD: PASSWORD,
        SEXTANT_REPORT_HEARTBEAT_S: '1',
        // The fixture repository is a local path in the temporary folder.
        SEXTANT_REPO_PATHS: tmpdir(),
        DATABASE_URL: databaseUrl ?? '',
      },
      base,
    );
    cleanups.push(() => server.stop('SIGKILL'));
    await server.start();

    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const api = async (method: string, path: string, body?: unknown) => {
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
    const team = await api('POST', '/api/teams', { name: 'restarts' });
    await api('POST', '/api/apps', {
      teamId: team.id,
      name: 'calculator',
      language: 'java',
      repoUrl: repo,
      buildCommand: 'sleep 5',
    });
    const upload = await fetch(`${base}/api/coverage/uploads?app=calculator&commit=head&envType=test&testType=2`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: readFileSync(join(FIXTURES, 'jacoco/jacoco.xml')),
    });
    expect(upload.status, await upload.clone().text()).toBeLessThan(300);

    const report = await api('POST', '/api/reports', {
      app: 'calculator',
      name: 'survives restart',
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 2,
      coverageType: 'incremental',
    });
    const statuses = async () => {
      const page = await api('GET', `/api/messages?reportId=${report.id}&perPage=500`);
      return (page.items as { status: string }[]).map((m) => m.status).reverse();
    };

    await until('COMPILING', async () => ((await statuses()).includes('COMPILING') ? true : undefined), 60_000);
    await server.stop('SIGKILL');
    await server.start();
    const finalStatuses = await until(
      'the report to end',
      async () => {
        const seen = await statuses();
        return seen.some((s) => s === 'SUCCESS' || s.endsWith('FAIL')) ? seen : undefined;
      },
      120_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output()}`);
    });
    expect(finalStatuses.at(-1)).toBe('SUCCESS');
    // The first run got as far as the build; the second ran every step again after the restart.
    expect(finalStatuses.filter((s) => s === 'COMPILING')).toHaveLength(2);
    expect(finalStatuses.filter((s) => s === 'SUCCESS')).toHaveLength(1);
    await server.stop('SIGTERM');

    const database: Database = await openDatabase(
      databaseUrl ? { url: databaseUrl } : { pgliteDir: join(dataDir, 'pg') },
    );
    try {
      const [row] = await database.db
        .select()
        .from(reports)
        .where(eq(reports.id, report.id as string));
      expect(row).toMatchObject({ status: 'SUCCESS', run: 1, errMsg: null });
      const duplicates = await database.db
        .select({ name: reportDetails.name, n: sql<number>`count(*)::int` })
        .from(reportDetails)
        .where(eq(reportDetails.reportId, report.id as string))
        .groupBy(reportDetails.name, reportDetails.kind, reportDetails.filePath, reportDetails.startLine)
        .having(sql`count(*) > 1`);
      expect(duplicates).toEqual([]);
      const [rows] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(reportDetails)
        .where(eq(reportDetails.reportId, report.id as string));
      expect(rows?.n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  }, 300_000);
});
