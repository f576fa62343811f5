import { counterRatio, diffCoverage } from '@sextant/coverage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { AuditService } from '../../src/modules/audit/service.ts';
import { type GenerateInput, generateReport } from '../../src/modules/reports/generate/index.ts';
import { sqlDirectory } from '../../src/modules/risks/directory.ts';
import { RisksRepository } from '../../src/modules/risks/repository.ts';
import { RisksService } from '../../src/modules/risks/service.ts';
import { freshDatabase } from '../support/build-test-app.ts';
import { type FixtureCase, fullyCovered, insertReports, loadFixtureCase } from './generate-support.ts';

let database: Database;
let jacoco: FixtureCase;
let lcov: FixtureCase;
let riskService: RisksService;

beforeAll(async () => {
  [database, jacoco, lcov] = await Promise.all([
    freshDatabase(),
    loadFixtureCase('jacoco', 'jacoco.xml'),
    loadFixtureCase('js', 'lcov.info'),
  ]);
  const db = database.db;
  riskService = new RisksService(
    new RisksRepository(db),
    sqlDirectory(db),
    new AuditService(db),
    async () => {},
    async () => new Set(),
  );
});
afterAll(async () => {
  await database?.close();
  jacoco?.cleanup();
  lcov?.cleanup();
});

type Scenario = { appId: string; reportIds: string[] };

function incremental(s: Scenario, index: number, fixture: FixtureCase, covered = false): GenerateInput {
  const coverage = covered ? fullyCovered(fixture.coverage) : fixture.coverage;
  return {
    reportId: s.reportIds[index] as string,
    appId: s.appId,
    version: 'head',
    newCommit: fixture.head,
    coverageType: 'incremental',
    coverage,
    diff: diffCoverage(fixture.changes, coverage),
    changes: fixture.changes,
    requirements: ['REQ-7', 'REQ-9'],
    passingGrade: 0.6,
  };
}

async function risksOf(appId: string) {
  const { rows } = await database.pool.query(
    `select report_id, class_name, method_name, signature, file_path, author, requirement, state,
            line_covered, line_total, resolved_at
     from risk_items where app_id = $1 order by file_path, method_name`,
    [appId],
  );
  return rows;
}

/** The changed methods the engine measures below the grade, computed here without the writer. */
function expectedRisks(fixture: FixtureCase, grade: number) {
  return fixture.diff.incremental.methods
    .filter((m) => m.measured && (counterRatio(m.counters.line) ?? (m.covered ? 1 : 0)) < grade)
    .map((m) => `${m.file}|${m.name}|${m.signature ?? ''}`)
    .sort();
}

describe('risk items of an incremental report', () => {
  it('opens one observing item per changed method below the passing grade, with author and requirement', async () => {
    const s = await insertReports(database, 1);
    const result = await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    const risks = await risksOf(s.appId);
    const expected = expectedRisks(jacoco, 0.6);
    expect(expected.length).toBeGreaterThan(0);
    expect(risks.map((r) => `${r.file_path}|${r.method_name}|${r.signature ?? ''}`).sort()).toEqual(expected);
    expect(result.riskItemsOpened).toBe(expected.length);
    for (const r of risks) {
      expect(r).toMatchObject({ state: 'observing', requirement: 'REQ-7', resolved_at: null });
      expect(r.author).toMatch(/<.+@.+>/);
      expect(r.line_covered / r.line_total).toBeLessThan(0.6);
    }
  });

  it('names a free function by its file (LCOV)', async () => {
    const s = await insertReports(database, 1);
    await generateReport(database.db, incremental(s, 0, lcov), riskService);
    const risks = await risksOf(s.appId);
    expect(risks.map((r) => r.method_name)).toEqual(['legacyTotal']);
    expect(risks[0]).toMatchObject({ class_name: 'src/unused.js', file_path: 'src/unused.js', line_covered: 0 });
  });

  it("resolves an earlier report's open items when a later report covers the methods", async () => {
    const s = await insertReports(database, 2);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    const opened = await risksOf(s.appId);
    const result = await generateReport(database.db, incremental(s, 1, jacoco, true), riskService);
    const after = await risksOf(s.appId);
    expect(after).toHaveLength(opened.length);
    expect(result.riskItemsResolved).toBe(opened.length);
    for (const r of after) {
      expect(r.report_id).toBe(s.reportIds[0]);
      expect(r.state).toBe('resolved');
      expect(r.resolved_at).toBeInstanceOf(Date);
    }
  });

  it('resolves them through a full report too (matched by file, method name and descriptor)', async () => {
    const s = await insertReports(database, 2);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    const full = { ...incremental(s, 1, jacoco, true), coverageType: 'full' as const, diff: null };
    await generateReport(database.db, full, riskService);
    const after = await risksOf(s.appId);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => r.state === 'resolved')).toBe(true);
  });

  it('a re-run after more coverage arrived resolves its own items instead of duplicating or dropping them', async () => {
    const s = await insertReports(database, 1);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    const opened = await risksOf(s.appId);
    expect(opened.length).toBe(expectedRisks(jacoco, 0.6).length);
    await generateReport(database.db, incremental(s, 0, jacoco, true), riskService);
    const after = await risksOf(s.appId);
    expect(after.map((r) => r.method_name)).toEqual(opened.map((r) => r.method_name));
    expect(after.every((r) => r.state === 'resolved')).toBe(true);
  });

  it('a second report of the same version moves the items to itself instead of adding new ones', async () => {
    const s = await insertReports(database, 2);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    const result = await generateReport(database.db, incremental(s, 1, jacoco), riskService);
    const risks = await risksOf(s.appId);
    expect(result.riskItemsOpened).toBe(0);
    expect(risks.length).toBe(expectedRisks(jacoco, 0.6).length);
    expect(risks.every((r) => r.report_id === s.reportIds[1] && r.state === 'observing')).toBe(true);
  });

  it('an accepted item stays accepted across reports until its method body changes, then is observed anew', async () => {
    const s = await insertReports(database, 3);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    await database.pool.query(`update risk_items set state = 'judged', judgment = 'accepted' where app_id = $1`, [
      s.appId,
    ]);
    await generateReport(database.db, incremental(s, 1, jacoco), riskService);
    expect((await risksOf(s.appId)).every((r) => r.state === 'judged')).toBe(true);

    // The same methods with other bodies (as a later commit of the version would give).
    const changed = incremental(s, 2, jacoco);
    const diff = changed.diff as NonNullable<typeof changed.diff>;
    const edited = {
      ...diff,
      incremental: {
        ...diff.incremental,
        methods: diff.incremental.methods.map((m) => ({ ...m, bodyHash: `${m.bodyHash}-edited` })),
      },
    };
    await generateReport(database.db, { ...changed, diff: edited }, riskService);
    const after = await risksOf(s.appId);
    expect(after.length).toBe(expectedRisks(jacoco, 0.6).length);
    expect(after.every((r) => r.state === 'observing')).toBe(true);
    const { rows } = await database.pool.query(
      `select h.from_state, h.to_state from risk_item_history h join risk_items r on r.id = h.risk_item_id
       where r.app_id = $1 and h.to_state = 'observing' and h.from_state = 'judged'`,
      [s.appId],
    );
    expect(rows.length).toBe(after.length);
  });

  it("a report of another version covering the methods leaves this version's items open", async () => {
    const s = await insertReports(database, 2);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    await generateReport(database.db, { ...incremental(s, 1, jacoco, true), version: 'next' }, riskService);
    const risks = await risksOf(s.appId);
    expect(risks.length).toBe(expectedRisks(jacoco, 0.6).length);
    expect(risks.every((r) => r.state === 'observing')).toBe(true);
  });

  it('leaves a pending item pending when the method is still below the grade', async () => {
    const s = await insertReports(database, 2);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    await database.pool.query(`update risk_items set state = 'pending' where app_id = $1`, [s.appId]);
    await generateReport(database.db, incremental(s, 0, jacoco), riskService);
    const risks = await risksOf(s.appId);
    expect(risks.length).toBe(expectedRisks(jacoco, 0.6).length);
    expect(risks.every((r) => r.state === 'pending')).toBe(true);
  });
});
