import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jacocoToolsMissing } from '@sextant/cli/testing';
import { classFilesAt, writeClassTar } from '@sextant/coverage/node';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../tools/test-support/machine.ts';
import { buildApp } from '../../src/app.ts';
import { messages } from '../../src/db/schema/index.ts';
import { TEST_JWT_SECRET, testAppOptions } from '../support/build-test-app.ts';
import { classBlobCount, registerShop } from './exec-support.ts';
import { useReportsApp, waitForReport } from './pipeline-support.ts';

const noJacoco = skipWithout('a JaCoCo run to make exec data', jacocoToolsMissing);

// Issue 41, ADR 0006: a web process receives an agent's class files and exec data; a worker with
// a data folder of its own (another machine) runs the report over them, through PostgreSQL.
describe.skipIf(noJacoco)('class files received by a web process on another machine (issue 41)', () => {
  const worker = useReportsApp({ uploadStorage: 'database' });
  const webDataDir = mkdtempSync(join(tmpdir(), 'sx-web-data-'));
  const dir = mkdtempSync(join(tmpdir(), 'sx-exec-other-machine-'));
  let web: FastifyInstance;
  let sha = '';
  let token = '';
  beforeAll(async () => {
    web = await buildApp(
      testAppOptions({
        db: worker.db,
        runJobs: false,
        config: {
          jwtSecret: TEST_JWT_SECRET,
          dataDir: webDataDir,
          repoPaths: [tmpdir()],
          uploadStorage: 'database',
        },
      }),
    );
    const registered = await registerShop(worker, dir, ['test']);
    const shop = registered.shop;
    ({ sha, token } = registered);
    const execPath = join(dir, 'run.exec');
    execFileSync('java', [`-javaagent:${shop.agent}=destfile=${execPath}`, '-cp', shop.classes, 'demo.Main', '12'], {
      input: '',
    });
    // Everything the agent sends goes to the web process.
    const headers = { authorization: `Bearer ${token}` };
    const files = await classFilesAt(shop.classes);
    const classes = files.map((f) => ({ name: f.name, sha256: createHash('sha256').update(f.bytes).digest('hex') }));
    const list = { app: 'shop', commit: sha, classes };
    const first = await web.inject({ method: 'POST', url: '/api/coverage/class-sets', headers, payload: list });
    expect(first.json().data).toMatchObject({ recorded: false });
    const sent = await web.inject({
      method: 'POST',
      url: '/api/coverage/class-files?app=shop',
      headers: { ...headers, 'content-type': 'application/x-tar' },
      payload: writeClassTar(files),
    });
    expect([sent.statusCode, sent.json().data]).toEqual([201, { stored: 2, known: 0 }]);
    const again = await web.inject({ method: 'POST', url: '/api/coverage/class-sets', headers, payload: list });
    expect(again.json().data).toEqual({ recorded: true, classes: 2, missing: [] });
    const upload = await web.inject({
      method: 'POST',
      url: `/api/coverage/uploads?app=shop&commit=${sha}&envType=test&testType=2`,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: readFileSync(execPath),
    });
    expect([upload.statusCode, upload.json().data?.format], upload.body).toEqual([201, 'jacoco-exec']);
  }, 180_000);
  afterAll(async () => {
    await web?.close();
    rmSync(webDataDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the class files in the database, and the worker reports the exec data with them', async () => {
    expect(await classBlobCount(worker.db, webDataDir, 'database')).toBe(2);
    for (const dataDir of [webDataDir, worker.dataDir]) expect(existsSync(join(dataDir, 'class-files'))).toBe(false);

    const created = await worker.ok<{ id: string }>('POST', '/api/reports', {
      app: 'shop',
      name: 'exec from another machine',
      baseVersion: sha,
      newVersion: sha,
      envType: 'test',
      testType: 2,
      coverageType: 'full',
    });
    const row = await waitForReport(worker.db, created.id);
    expect(row.status, row.errMsg ?? '').toBe('SUCCESS');
    const steps = await worker.db.select().from(messages).where(eq(messages.reportId, row.id));
    expect(steps.find((m) => m.status === 'ENV_REPORT')?.text).toMatch(
      /1 JaCoCo exec upload merged probe by probe \(\d+ class(es)? with data\) and reported by JaCoCo over 2 stored class files: exact counters/,
    );
    expect(row.lineTotal).toBeGreaterThan(0);
  }, 180_000);
});
