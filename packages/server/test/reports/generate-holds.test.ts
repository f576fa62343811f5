import { type Coverage, diffCoverage, type RevisionChanges } from '@sextant/coverage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Hold } from '../../src/db/client.ts';
import { AuditService } from '../../src/modules/audit/service.ts';
import { type CoverageRisks, type GenerateInput, generateReport } from '../../src/modules/reports/generate/index.ts';
import { STAGE_CHUNK_ROWS } from '../../src/modules/reports/repository.ts';
import { sqlDirectory } from '../../src/modules/risks/directory.ts';
import { RisksRepository } from '../../src/modules/risks/repository.ts';
import { RisksService } from '../../src/modules/risks/service.ts';
import { freshDatabase } from '../support/build-test-app.ts';
import { type FixtureCase, insertReports, loadFixtureCase } from './generate-support.ts';

// Issue 41: how a report's write holds the embedded database (PGlite serves one statement, or one whole
// transaction, at a time; every other request waits behind it). Observed in the engine's own thread
// (`traceHolds`), so these are facts about the write's structure, not timings.
let database: Database;
let jacoco: FixtureCase;
let appId: string;
let reportIds: string[];
let risks: RisksService;

beforeAll(async () => {
  [database, jacoco] = await Promise.all([
    freshDatabase({ traceHolds: true }),
    loadFixtureCase('jacoco', 'jacoco.xml'),
  ]);
  ({ appId, reportIds } = await insertReports(database, 4));
  const db = database.db;
  risks = new RisksService(
    new RisksRepository(db),
    sqlDirectory(db),
    new AuditService(db),
    async () => {},
    async () => new Set(),
  );
}, 300_000);
afterAll(async () => {
  await database?.close();
  jacoco?.cleanup();
});

const copyPath = (k: number, path: string) => `copy${k}/${path}`;

/** The fixture's report and changes `times` over under other folders: as many more rows, changed methods and risks. */
function copies(times: number): { coverage: Coverage; changes: RevisionChanges } {
  const range = Array.from({ length: times }, (_, k) => k);
  const { coverage, changes } = jacoco;
  return {
    coverage: {
      ...coverage,
      files: range.flatMap((k) => coverage.files.map((f) => ({ ...f, path: copyPath(k, f.path) }))),
    },
    changes: {
      ...changes,
      changed: range.flatMap((k) => changes.changed.map((f) => ({ ...f, path: copyPath(k, f.path) }))),
      headMethods: new Map(
        range.flatMap((k) => [...changes.headMethods].map(([path, methods]) => [copyPath(k, path), methods] as const)),
      ),
      changedMethods: range.flatMap((k) => changes.changedMethods.map((m) => ({ ...m, file: copyPath(k, m.file) }))),
      authors: range.flatMap(() => changes.authors),
    },
  };
}

function incremental(reportId: string, times: number): GenerateInput {
  const { coverage, changes } = copies(times);
  return {
    reportId,
    appId,
    version: `v-${reportId}`,
    newCommit: jacoco.head,
    coverageType: 'incremental',
    coverage,
    diff: diffCoverage(changes, coverage),
    changes,
    requirements: ['REQ-1'],
    passingGrade: 0.6,
  };
}

const isTransaction = (h: Hold) => h.statements > 1;
const writesRows = (text: string) => /^insert into report_(details|files)\b/i.test(text);

async function holdsOf(work: () => Promise<unknown>): Promise<Hold[]> {
  await database.takeHolds?.();
  await work();
  return (await database.takeHolds?.()) ?? [];
}

async function shown(reportId: string) {
  const { rows } = await database.pool.query(
    `select r.line_covered, r.rows_generation,
       (select count(*) from report_details d where d.report_id = r.id and d.generation = r.rows_generation)::int as rows,
       (select count(*) from report_details d where d.report_id = r.id)::int as stored,
       (select count(*) from risk_items i where i.report_id = r.id)::int as risks
     from reports r where r.id = $1`,
    [reportId],
  );
  return rows[0] as { line_covered: string; rows_generation: string; rows: number; stored: number; risks: number };
}

describe.skipIf(process.env.DATABASE_URL)('a report write on the embedded database (issue 41)', () => {
  it('stages rows one statement at a time; the swap is one transaction whose size does not grow with the report', async () => {
    const small = await holdsOf(() => generateReport(database.db, incremental(reportIds[0] as string, 1), risks));
    const large = await holdsOf(() => generateReport(database.db, incremental(reportIds[1] as string, 30), risks));
    for (const holds of [small, large]) {
      // Exactly one transaction: the swap (figures, summaries, risk items, rows_generation).
      const transactions = holds.filter(isTransaction);
      expect(transactions).toHaveLength(1);
      // It writes no class, method or file row: those went in before, each insert alone.
      expect((transactions[0] as Hold).sql.filter(writesRows)).toEqual([]);
      expect(holds.filter((h) => !isTransaction(h) && h.sql.some(writesRows)).length).toBeGreaterThan(0);
    }
    const swap = (holds: Hold[]) => holds.find(isTransaction) as Hold;
    // Thirty times the changed methods and risk items, the same statements in the swap.
    const smallRisks = (await shown(reportIds[0] as string)).risks;
    expect(smallRisks).toBeGreaterThan(0);
    expect((await shown(reportIds[1] as string)).risks).toBe(30 * smallRisks);
    expect(swap(large).statements).toBe(swap(small).statements);
    // The large report's rows went in as many short statements, not one per table.
    const { rows } = await shown(reportIds[1] as string);
    const staging = large.filter((h) => !isTransaction(h) && h.sql.some(writesRows));
    expect(staging.length).toBeGreaterThanOrEqual(Math.ceil(rows / STAGE_CHUNK_ROWS));
  }, 300_000);
});

describe('a report write that fails at the swap', () => {
  it('leaves the shown generation and its risks as they were, no staged row visible, and the next run clears them', async () => {
    const id = reportIds[2] as string;
    await generateReport(database.db, incremental(id, 1), risks);
    const before = await shown(id);
    const failing: CoverageRisks = {
      record: async (client, input) => {
        await risks.record(client, input); // written inside the swap transaction, then lost with it
        throw new Error('the worker died mid-swap');
      },
    };
    await expect(generateReport(database.db, incremental(id, 5), failing)).rejects.toThrow('mid-swap');
    const after = await shown(id);
    expect(after.rows_generation).toBe(before.rows_generation);
    expect(after.line_covered).toBe(before.line_covered);
    expect(after.rows).toBe(before.rows);
    expect(after.risks).toBe(before.risks);
    // The staged generation is stored but not shown …
    expect(after.stored).toBeGreaterThan(before.rows);
    // … and the next run drops it and shows its own.
    await generateReport(database.db, incremental(id, 1), risks);
    const again = await shown(id);
    expect(again.rows_generation).not.toBe(before.rows_generation);
    expect(again.stored).toBe(again.rows);
    expect(again.rows).toBe(before.rows);
  }, 300_000);
});
