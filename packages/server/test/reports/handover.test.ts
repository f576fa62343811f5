import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { seed } from '../../src/db/seed.ts';
import { ADMIN_PASSWORD, freshDatabase, signIn, testAppOptions } from '../support/build-test-app.ts';
import { addUpload, fixtureRepo, statusesOf, waitForReport } from './pipeline-support.ts';

/** A server closed gracefully mid-job hands the report over: the next one finishes it at once. */
describe('graceful close during a job', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('releases the running report on close; the next instance takes it without waiting for staleness', async () => {
    const database: Database = await freshDatabase();
    cleanups.push(() => database.close());
    await seed(database.db, ADMIN_PASSWORD);
    const dataDir = mkdtempSync(join(tmpdir(), 'sx-handover-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const marker = join(dataDir, 'built-once');
    const repo = fixtureRepo('jacoco');
    cleanups.push(() => rmSync(dirname(repo), { recursive: true, force: true }));
    const start = () =>
      buildApp(
        testAppOptions({
          db: database.db,
          config: {
            jwtSecret: 'test-secret-that-is-long-enough-for-hs256!!',
            accessTokenTtl: 900,
            dataDir,
            repoPaths: [tmpdir()],
            // The build keeps a marker between the two instances' runs: outside a sandbox, which would hide it.
            buildSandbox: 'off',
          },
        }),
      );

    const first: FastifyInstance = await start();
    const admin = (await signIn(first, 'admin', ADMIN_PASSWORD)).headers;
    const call = async (app: FastifyInstance, url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url, headers: admin, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().data as { id: string };
    };
    const team = await call(first, '/api/teams', { name: 'handover' });
    const app = await call(first, '/api/apps', {
      teamId: team.id,
      name: 'calculator',
      language: 'java',
      repoUrl: repo,
      // Slow the first time only, so the second instance's build is quick.
      buildCommand: `if [ -e ${marker} ]; then exit 0; fi; touch ${marker}; sleep 60`,
    });
    await addUpload(database.db, dataDir, {
      appId: app.id,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'jacoco/jacoco.xml',
      format: 'jacoco',
    });
    const report = await call(first, '/api/reports', {
      app: 'calculator',
      name: 'handed over',
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 1,
      coverageType: 'full',
    });
    await waitForReport(database.db, report.id, (r) => r.status === 'COMPILING');
    const building = Date.now() + 30_000;
    while (!existsSync(marker) && Date.now() < building) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(marker)).toBe(true);
    const closing = Date.now();
    await first.close();
    // The build was killed, not waited for.
    expect(Date.now() - closing).toBeLessThan(15_000);
    const released = await waitForReport(database.db, report.id, () => true);
    expect(released.status).toBe('COMPILING');
    expect(Date.now() - released.updatedAt.getTime()).toBeGreaterThan(30_000);

    // Without the release the report would wait out the 30 s stale window after its last heart-beat.
    const second = await start();
    cleanups.push(() => second.close());
    const done = await waitForReport(
      database.db,
      report.id,
      (r) => r.status === 'SUCCESS' || r.status.endsWith('FAIL'),
    );
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
    expect(Date.now() - closing).toBeLessThan(30_000);
    expect((await statusesOf(database.db, report.id)).filter((s) => s === 'COMPILING')).toHaveLength(2);
  }, 180_000);
});
