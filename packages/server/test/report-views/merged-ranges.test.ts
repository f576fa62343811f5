import type { ReportDetail } from '@sextant/api';
import type { ClassCoverage, Counter, CounterKind, Coverage } from '@sextant/coverage';
import { readCoverageFile } from '@sextant/coverage/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateReport } from '../../src/modules/reports/generate/index.ts';
import { type FixtureCase, loadFixtureCase } from '../reports/generate-support.ts';
import { useReportViews } from './support.ts';

/**
 * Two real JaCoCo runs (packages/coverage/fixtures/jacoco: jacoco-main.xml, jacoco-cli.xml) that
 * covered different branches of the same lines, merged as the env-report step merges uploads, and
 * JaCoCo's own report over both exec files (jacoco.xml): the API's ranges must hold its figures.
 */
const FIXTURES = new URL('../../../coverage/fixtures/jacoco/', import.meta.url).pathname;
const KINDS = [
  ['instruction', 'instruction'],
  ['branch', 'branch'],
  ['line', 'line'],
  ['complexity', 'complexity'],
  ['method', 'method'],
  ['class', 'class'],
] as const satisfies readonly (readonly [CounterKind, string])[];

type Row = ReportDetail & Record<string, unknown>;

/** The row's counter is JaCoCo's or a range holding it; answers whether it is a range. */
function holds(row: Record<string, unknown>, field: string, truth: Counter | null): boolean {
  const covered = row[`${field}Covered`] as number | null;
  const most = row[`${field}CoveredAtMost`] as number | null;
  if (truth === null) {
    expect(covered).toBeNull();
    return false;
  }
  expect(row[`${field}Total`]).toBe(truth.covered + truth.missed);
  if (most === null) {
    expect(covered).toBe(truth.covered);
    return false;
  }
  expect(covered as number).toBeLessThan(most);
  expect(covered as number).toBeLessThanOrEqual(truth.covered);
  expect(most).toBeGreaterThanOrEqual(truth.covered);
  return true;
}

describe('report figures and rows of two merged JaCoCo XML runs', () => {
  const t = useReportViews();
  let merged: FixtureCase;
  let jacoco: Coverage;
  let reportId = '';

  beforeAll(async () => {
    [merged, jacoco] = await Promise.all([
      loadFixtureCase('jacoco', ['jacoco-main.xml', 'jacoco-cli.xml']),
      readCoverageFile(`${FIXTURES}jacoco.xml`),
    ]);
    const { appId } = await t.createApp('Merges', 'calculator');
    reportId = await t.insertReport({ appId, name: 'two runs' });
    await generateReport(t.db, {
      reportId,
      appId,
      version: 'head',
      newCommit: merged.head,
      coverageType: 'full',
      coverage: merged.coverage,
      diff: null,
      changes: merged.changes,
      requirements: [],
      passingGrade: 0.6,
    });
  });
  afterAll(() => merged?.cleanup());

  it('the report carries coveredAtMost on its ranged counters, and its coverage is the lower bound', async () => {
    const report = await t.ok<Record<string, unknown>>('GET', `/api/getReport?reportId=${reportId}`);
    const ranged = KINDS.filter(([kind, field]) => holds(report, field, jacoco.counters[kind])).map(([k]) => k);
    expect(ranged).toEqual(['instruction', 'branch', 'complexity']);
    expect(report).toMatchObject({ branchCovered: 20, branchCoveredAtMost: 24, branchTotal: 30 });
    expect(report.branchCoverage).toBe(20 / 30);
    expect(report.lineCoveredAtMost).toBeNull();
  });

  it('class and method rows hold JaCoCo’s own figures, as ranges where the runs disagreed', async () => {
    const classes = await t.ok<{ reports: Row[] }>('GET', `/api/getReportDetails?reportId=${reportId}&perPage=1000`);
    const truth = new Map<string, ClassCoverage>(jacoco.files.flatMap((f) => f.classes.map((c) => [c.name, c])));
    let rangedClasses = 0;
    let rangedMethods = 0;
    for (const row of classes.reports) {
      const own = truth.get(row.name);
      expect(own, row.name).toBeDefined();
      if (KINDS.filter(([kind, field]) => holds(row, field, own?.counters[kind] ?? null)).length) rangedClasses++;
      const methods = await t.ok<{ reports: Row[] }>(
        'GET',
        `/api/getReportDetails?reportId=${reportId}&classId=${row.id}&perPage=1000`,
      );
      for (const method of methods.reports) {
        const m = own?.methods.find((x) => x.name + (x.signature ?? '') === method.name);
        expect(m, method.name).toBeDefined();
        if (KINDS.filter(([kind, field]) => holds(method, field, m?.counters[kind] ?? null)).length) rangedMethods++;
      }
    }
    // The four lines whose branches or instructions the runs split lie in three methods of two classes.
    expect([rangedClasses, rangedMethods]).toEqual([2, 3]);
  });
});
