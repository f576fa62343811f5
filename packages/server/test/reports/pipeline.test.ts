import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageUploads, reportDetails } from '../../src/db/schema/index.ts';
import { addUpload, fixtureRepo, statusesOf, useReportsApp, waitForReport } from './pipeline-support.ts';
import { diffCoverFigures, jacocoReportLines } from './real-tool-figures.ts';

describe('report pipeline on a real repository and real JaCoCo coverage', () => {
  const t = useReportsApp();
  let repo: string;
  let appId: string;
  let uploadId: string;
  beforeAll(async () => {
    repo = fixtureRepo('jacoco');
    appId = await t.createApp({ name: 'calculator', repoUrl: repo });
    uploadId = await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 2,
      fixture: 'jacoco/jacoco.xml',
      format: 'jacoco',
    });
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const create = (body: Record<string, unknown>) =>
    t.call('POST', '/api/reports', {
      app: 'calculator',
      name: 'sprint 1',
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 2,
      coverageType: 'full',
      ...body,
    });

  it('runs a full report from QUEUED to SUCCESS, publishing each step', async () => {
    const res = await create({ name: 'full run' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({ appName: 'calculator', status: 'QUEUED', coverageType: 'full', testType: 2 });

    const done = await waitForReport(t.db, created.id);
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
    expect(done.finishedAt).not.toBeNull();
    expect(done.newCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(done.baseCommit).not.toBe(done.newCommit);
    // JaCoCo's own line counter of the report it wrote.
    expect({ covered: done.lineCovered, total: done.lineTotal }).toEqual(jacocoReportLines('jacoco/jacoco.xml'));
    expect(await statusesOf(t.db, created.id)).toEqual([
      'QUEUED',
      'CLONING',
      'ADDING_MODULE',
      'ENV_REPORT',
      'GENERATING_REPORT',
      'SUCCESS',
    ]);
    const [upload] = await t.db.select().from(coverageUploads).where(eq(coverageUploads.id, uploadId));
    expect(upload?.commitSha).toBe(done.newCommit);
    const [details] = await t.db
      .select({ n: count() })
      .from(reportDetails)
      .where(eq(reportDetails.reportId, created.id));
    expect(details?.n).toBeGreaterThan(0);
  });

  it('runs an incremental report through DIFF_METHODS and stores its diff figures', async () => {
    const res = await create({ name: 'incremental run', coverageType: 'incremental', app: appId });
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitForReport(t.db, res.json().data.id);
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
    // diff-cover's figures for this report against base (its --json-report beside the fixture).
    const diffCover = diffCoverFigures('jacoco/diff-cover.json');
    expect({ covered: done.diffLineCovered, total: done.diffLineTotal }).toEqual({
      covered: diffCover.covered,
      total: diffCover.total,
    });
    expect(await statusesOf(t.db, done.id)).toEqual([
      'QUEUED',
      'CLONING',
      'DIFF_METHODS',
      'ADDING_MODULE',
      'ENV_REPORT',
      'GENERATING_REPORT',
      'SUCCESS',
    ]);
  });

  it('runs two reports at once, each to SUCCESS with its own rows', async () => {
    const [a, b] = await Promise.all([
      create({ name: 'parallel a' }),
      create({ name: 'parallel b', coverageType: 'incremental' }),
    ]);
    expect(a?.statusCode).toBe(201);
    expect(b?.statusCode).toBe(201);
    const ids = [a?.json().data.id, b?.json().data.id] as string[];
    const finished = await Promise.all(ids.map((id) => waitForReport(t.db, id)));
    expect(finished.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
    const counts = await Promise.all(
      ids.map(async (id) => {
        const [row] = await t.db.select({ n: count() }).from(reportDetails).where(eq(reportDetails.reportId, id));
        return row?.n ?? 0;
      }),
    );
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[0]).toBe(counts[1]);
  });
});
