import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report, ReportDetail, SourceView } from '@sextant/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageUploads } from '../../src/db/schema/index.ts';
import { RUN_1, RUN_2, RUN_3, writeCarryRepository } from './carry-forward-fixture.ts';
import { addUpload, useReportsApp, waitForReport } from './pipeline-support.ts';

describe('carry-forward of coverage across builds, through the pipeline', () => {
  const t = useReportsApp();
  let dir: string;
  let commits: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sx-carry-'));
    const repo = join(dir, 'repo');
    commits = writeCarryRepository(repo);
    const appId = await t.createApp({ name: 'shop', repoUrl: repo });
    for (const [i, run] of [RUN_1, RUN_2, RUN_3].entries()) {
      const file = join(dir, `run-${i + 1}.info`);
      writeFileSync(file, run);
      await addUpload(t.db, t.dataDir, {
        appId,
        commit: `c${i + 1}`,
        envType: 'test',
        testType: 2,
        fixture: file,
        format: 'lcov',
      });
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function runReport(body: Record<string, unknown>): Promise<Report> {
    const created = await t.ok<Report>('POST', '/api/reports', {
      app: 'shop',
      name: JSON.stringify(body),
      baseVersion: 'c1',
      newVersion: 'c3',
      envType: 'test',
      testType: 2,
      coverageType: 'full',
      ...body,
    });
    const done = await waitForReport(t.db, created.id);
    expect(done.errMsg).toBeNull();
    expect(done.status).toBe('SUCCESS');
    return t.ok<Report>('GET', `/api/getReport?reportId=${created.id}`);
  }

  async function methodRows(reportId: string): Promise<Record<string, ReportDetail>> {
    const classes = await t.ok<{ reports: ReportDetail[] }>('GET', `/api/getReportDetails?reportId=${reportId}`);
    const classId = classes.reports[0]?.id;
    const methods = await t.ok<{ reports: ReportDetail[] }>(
      'GET',
      `/api/getReportDetails?reportId=${reportId}&classId=${classId}`,
    );
    return Object.fromEntries(methods.reports.map((row) => [row.name, row]));
  }

  it('keeps the unchanged method covered by an older build, never a changed one, beside the fresh figure', async () => {
    const fresh = await runReport({});
    const carried = await runReport({ carryForwardDays: 7 });
    expect(fresh.carried).toBeNull();
    // The fresh figures do not move: carried coverage is a separate figure.
    for (const key of ['lineCovered', 'lineTotal', 'methodCovered', 'methodTotal'] as const) {
      expect(carried[key], key).toBe(fresh[key]);
    }
    expect({ line: [fresh.lineCovered, fresh.lineTotal], method: [fresh.methodCovered, fresh.methodTotal] }).toEqual({
      line: [3, 11],
      method: [1, 4],
    });
    expect(carried.carryForwardDays).toBe(7);
    // price: changed in build 2, covered by its run and unchanged since (lines 5-7). discount:
    // covered by build 1 only and changed in build 3: nothing carried. Build 1's price is stale.
    expect(carried.carried).toMatchObject({
      lineCovered: 6,
      methodCovered: 2,
      lineCoverage: 6 / 11,
      methodCoverage: 2 / 4,
      diffLineCovered: null,
    });
    const [newer, older] = carried.carried?.sources ?? [];
    expect(newer).toMatchObject({ commit: commits[1], uploads: 1, lines: 3, methods: 1 });
    expect(older).toMatchObject({ commit: commits[0], uploads: 1, lines: 0, methods: 0 });

    const rows = await methodRows(carried.id);
    expect(rows.price?.carriedFrom).toBe(commits[1]);
    expect(rows.discount?.carriedFrom).toBeNull();
    expect(rows.hello?.carriedFrom).toBeNull();
    // Covered by the fresh run: nothing to carry.
    expect(rows.tax?.carriedFrom).toBeNull();
    expect(Object.values(await methodRows(fresh.id)).map((row) => row.carriedFrom)).toEqual([null, null, null, null]);

    const source = await t.ok<SourceView>('GET', `/api/reports/${carried.id}/source?path=src/shop.js`);
    expect(source.carriedLines).toEqual([5, 6, 7]);
  });

  it('carries into an incremental report only what lies in changed methods and lines', async () => {
    const fresh = await runReport({ coverageType: 'incremental' });
    const carried = await runReport({ coverageType: 'incremental', carryForwardDays: 7 });
    expect([carried.diffLineCovered, carried.diffLineTotal]).toEqual([fresh.diffLineCovered, fresh.diffLineTotal]);
    expect([carried.lineCovered, carried.methodCovered]).toEqual([fresh.lineCovered, fresh.methodCovered]);
    // Changed coverable lines 1, 2 (hello), 6 (price), 11 (discount), 19: the run covered 19; build 2's run line 6.
    expect([fresh.diffLineCovered, fresh.diffLineTotal]).toEqual([1, 5]);
    expect(carried.carried?.diffLineCovered).toBe(2);
    expect(carried.carried?.diffLineCoverage).toBe(2 / 5);
    // price's three lines and the method itself, among the changed methods hello, price and discount.
    expect(carried.carried?.lineCovered).toBe((fresh.lineCovered ?? 0) + 3);
    expect(carried.carried?.methodCovered).toBe((fresh.methodCovered ?? 0) + 1);
  });

  it('is switched off again per report, and then carries nothing', async () => {
    const report = await runReport({ carryForwardDays: 7 });
    expect(report.carried).not.toBeNull();
    const res = await t.call('PATCH', `/api/reports/${report.id}`, { carryForwardDays: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForReport(t.db, report.id, (row) => row.status === 'SUCCESS' && row.carried === null);
    expect(done.carryForwardDays).toBe(0);
  });

  it('reads only the uploads made within the window', async () => {
    // Build 2's run was uploaded ten days ago: outside a 7-day window, inside a 30-day one.
    await t.db
      .update(coverageUploads)
      .set({ createdAt: new Date(Date.now() - 10 * 24 * 60 * 60_000) })
      .where(eq(coverageUploads.commit, 'c2'));
    const week = await runReport({ carryForwardDays: 7 });
    expect(week.carried?.sources.map((s) => s.commit)).toEqual([commits[0]]);
    expect(week.carried?.lineCovered).toBe(week.lineCovered);
    // A finished report over build 2 is named as where its carried coverage was seen.
    const atBuild2 = await runReport({ newVersion: 'c2', name: 'build 2' });
    const month = await runReport({ carryForwardDays: 30 });
    expect(month.carried?.sources.map((s) => s.commit)).toEqual([commits[0], commits[1]]);
    expect(month.carried?.sources.map((s) => s.report)).toEqual([null, { id: atBuild2.id, name: 'build 2' }]);
    expect(month.carried?.lineCovered).toBe((month.lineCovered ?? 0) + 3);
  });

  it('refuses a window that is not a whole number of days up to a year, creating nothing', async () => {
    for (const days of [-1, 1.5, 366, '7']) {
      const res = await t.call('POST', '/api/reports', {
        app: 'shop',
        name: 'bad window',
        baseVersion: 'c1',
        newVersion: 'c3',
        envType: 'test',
        testType: 2,
        coverageType: 'full',
        carryForwardDays: days,
      });
      expect(res.statusCode, String(days)).toBe(400);
    }
    const list = await t.ok<{ total: number }>('POST', '/api/searchReports', {
      appName: 'shop',
      testType: 2,
      perPage: 200,
    });
    const names = await t.ok<{ reports: Report[] }>('POST', '/api/searchReports', {
      appName: 'shop',
      testType: 2,
      perPage: 200,
    });
    expect(names.reports.map((r) => r.name)).not.toContain('bad window');
    expect(list.total).toBe(names.reports.length);
  });
});
