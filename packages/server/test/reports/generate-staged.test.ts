import type { Coverage } from '@sextant/coverage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { type GenerateInput, generateReport } from '../../src/modules/reports/generate/index.ts';
import { freshDatabase } from '../support/build-test-app.ts';
import { type FixtureCase, fullyCovered, insertReports, loadFixtureCase } from './generate-support.ts';

// Issue 41, on the embedded database (PGlite: one session, where an open transaction holds every other
// request): a report's rows are staged in short statements and shown by one short swap, so requests run
// while a large report is written, and no reader sees a half-written report.
let database: Database;
let jacoco: FixtureCase;
let appId: string;
let reportIds: string[];

beforeAll(async () => {
  [database, jacoco] = await Promise.all([freshDatabase(), loadFixtureCase('jacoco', 'jacoco.xml')]);
  ({ appId, reportIds } = await insertReports(database, 2));
}, 300_000);
afterAll(async () => {
  await database?.close();
  jacoco?.cleanup();
});

/** The fixture's files copied `times` over under other folders: as many more class and method rows. */
function copies(coverage: Coverage, times: number): Coverage {
  const files = Array.from({ length: times }, (_, k) =>
    coverage.files.map((f) => ({ ...f, path: `copy${k}/${f.path}` })),
  ).flat();
  return { ...coverage, files };
}

const input = (reportId: string, coverage: Coverage): GenerateInput => ({
  reportId,
  appId,
  version: 'head',
  newCommit: jacoco.head,
  coverageType: 'full',
  coverage,
  diff: null,
  changes: jacoco.changes,
  requirements: [],
  passingGrade: 0.6,
});

type Seen = { lineCovered: number | null; classes: number; methods: number; files: number };

/**
 * What a reader sees of the report, in one statement (so its parts are of one moment), and how many
 * detail rows the report has in all generations then (`stored`: more than it shows while one is staged).
 */
async function observe(reportId: string): Promise<{ seen: Seen; stored: number }> {
  const { rows } = await database.pool.query(
    `select r.line_covered,
       (select count(*) from report_details d where d.report_id = r.id)::int as stored,
       (select count(*) from report_details d where d.report_id = r.id and d.generation = r.rows_generation
         and d.class_id is null)::int as classes,
       (select count(*) from report_details d where d.report_id = r.id and d.generation = r.rows_generation
         and d.class_id is not null)::int as methods,
       (select count(*) from report_files f where f.report_id = r.id and f.generation = r.rows_generation)::int as files
     from reports r where r.id = $1`,
    [reportId],
  );
  const r = rows[0];
  const lineCovered = r.line_covered === null ? null : Number(r.line_covered);
  return { seen: { lineCovered, classes: r.classes, methods: r.methods, files: r.files }, stored: r.stored };
}

const seen = async (reportId: string) => (await observe(reportId)).seen;

const allRows = async (reportId: string) =>
  Number(
    (await database.pool.query('select count(*)::int as n from report_details where report_id = $1', [reportId]))
      .rows[0].n,
  );

describe('generateReport stages and swaps (issue 41)', () => {
  it('readers see the old report or the whole new one while a large report is written, and run meanwhile', async () => {
    const id = reportIds[0] as string;
    await generateReport(database.db, input(id, jacoco.coverage));
    const before = await seen(id);
    const large = fullyCovered(copies(jacoco.coverage, 40));
    let done = false;
    const writing = generateReport(database.db, input(id, large)).finally(() => {
      done = true;
    });
    const observations: { seen: Seen; stored: number }[] = [];
    while (!done) observations.push(await observe(id));
    await writing;
    const after = await seen(id);
    expect(after.classes).toBe(before.classes * 40);
    expect(after.lineCovered).not.toBe(before.lineCovered);
    // Requests ran while the new rows were being written (between two of the writer's statements: the
    // database was not held for the whole report, as one transaction on PGlite would) …
    const shownRows = (s: Seen) => s.classes + s.methods;
    expect(observations.filter((o) => o.stored > shownRows(o.seen)).length).toBeGreaterThan(2);
    // … and each saw the old report or the whole new one, never a mix.
    const observed = observations.map((o) => o.seen);
    const strange = observed.filter(
      (o) => JSON.stringify(o) !== JSON.stringify(before) && JSON.stringify(o) !== JSON.stringify(after),
    );
    expect(strange).toEqual([]);
    // The replaced generation is gone.
    expect(await allRows(id)).toBe(after.classes + after.methods);
  });

  it('rows a killed run staged are never shown, and the next run drops them', async () => {
    const id = reportIds[1] as string;
    await generateReport(database.db, input(id, jacoco.coverage));
    const before = await seen(id);
    const shown = Number(
      (await database.pool.query('select rows_generation from reports where id = $1', [id])).rows[0].rows_generation,
    );
    // What a run killed between staging and swap leaves: rows of a newer generation.
    await database.pool.query(
      `insert into report_details (report_id, kind, name, generation) values ($1, 'class', 'half/Written', $2)`,
      [id, shown + 1],
    );
    expect(await seen(id)).toEqual(before);
    await generateReport(database.db, input(id, jacoco.coverage));
    expect(await seen(id)).toEqual(before);
    expect(await allRows(id)).toBe(before.classes + before.methods);
  });
});
