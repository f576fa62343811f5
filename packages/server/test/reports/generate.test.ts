import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { AuditService } from '../../src/modules/audit/service.ts';
import { type GenerateInput, generateReport } from '../../src/modules/reports/generate/index.ts';
import { sqlDirectory } from '../../src/modules/risks/directory.ts';
import { RisksRepository } from '../../src/modules/risks/repository.ts';
import { RisksService } from '../../src/modules/risks/service.ts';
import { freshDatabase } from '../support/build-test-app.ts';
import { type FixtureCase, insertReports, loadFixtureCase, storedCounts, storedFigures } from './generate-support.ts';
import { diffCoverFigures } from './real-tool-figures.ts';

let database: Database;
let jacoco: FixtureCase;
let lcov: FixtureCase;
let appId: string;
let reports: string[];

beforeAll(async () => {
  [database, jacoco, lcov] = await Promise.all([
    freshDatabase(),
    loadFixtureCase('jacoco', 'jacoco.xml'),
    loadFixtureCase('js', 'lcov.info'),
  ]);
  ({ appId, reportIds: reports } = await insertReports(database, 5));
});
afterAll(async () => {
  await database?.close();
  jacoco?.cleanup();
  lcov?.cleanup();
});

function input(reportId: string, fixture: FixtureCase, coverageType: 'full' | 'incremental'): GenerateInput {
  return {
    reportId,
    appId,
    version: 'head',
    newCommit: fixture.head,
    coverageType,
    coverage: fixture.coverage,
    diff: coverageType === 'incremental' ? fixture.diff : null,
    changes: fixture.changes,
    requirements: [],
    passingGrade: 0.6,
  };
}

/** The risks module as the app wires it (no notifications: no users here). */
const riskService = () =>
  new RisksService(
    new RisksRepository(database.db),
    sqlDirectory(database.db),
    new AuditService(database.db),
    async () => {},
    async () => new Set(),
  );

const classCount = (f: FixtureCase) => f.coverage.files.reduce((n, file) => n + file.classes.length, 0);
const methodCount = (f: FixtureCase) =>
  f.coverage.files.reduce((n, file) => n + file.classes.reduce((m, c) => m + c.methods.length, 0), 0);

describe('generateReport on a real JaCoCo report', () => {
  it('stores the coverage totals and one class row per class, one method row per method (full)', async () => {
    const id = reports[0] as string;
    const result = await generateReport(database.db, input(id, jacoco, 'full'));
    const figures = await storedFigures(database.pool, id);
    expect(figures.counters).toEqual(jacoco.coverage.counters);
    expect(figures.diffLineTotal).toBeNull();
    expect(figures.codeAuthor).toBeNull();
    const counts = await storedCounts(database.pool, id);
    expect(counts).toEqual({
      classes: classCount(jacoco),
      methods: methodCount(jacoco),
      files: jacoco.coverage.files.length,
      risks: 0,
    });
    expect(result).toMatchObject({ classRows: counts.classes, methodRows: counts.methods, fileRows: counts.files });
  });

  it('names methods with their descriptor and links them to their class row with its counters', async () => {
    const id = reports[0] as string;
    const file = jacoco.coverage.files.find((f) => f.classes.some((c) => c.methods.length > 1));
    const cls = file?.classes.find((c) => c.methods.length > 1);
    const method = cls?.methods[1];
    if (!file || !cls || !method) throw new Error('the fixture has a class with two methods');
    const { rows } = await database.pool.query(
      `select m.name, m.start_line, m.line_covered, m.line_total, c.name as class_name, c.method_count,
              c.line_covered as class_line_covered
       from report_details m join report_details c on c.id = m.class_id
       where m.report_id = $1 and c.name = $2 and m.name = $3`,
      [id, cls.name, `${method.name}${method.signature}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      start_line: method.startLine,
      line_covered: String(method.counters.line?.covered),
      method_count: cls.methods.length,
      class_line_covered: String(cls.counters.line?.covered),
    });
    expect(method.signature).toMatch(/^\(.*\)/);
  });

  it('stores the incremental counters over changed methods and the diff-cover line figures', async () => {
    const id = reports[1] as string;
    await generateReport(database.db, input(id, jacoco, 'incremental'));
    const figures = await storedFigures(database.pool, id);
    expect(figures.counters).toEqual(jacoco.diff.incremental.totals);
    // diff-cover's own figures for jacoco.xml against base, not the engine's.
    const diffCover = diffCoverFigures('jacoco/diff-cover.json');
    expect([figures.diffLineCovered, figures.diffLineTotal]).toEqual([diffCover.covered, diffCover.total]);
    expect(figures.codeAuthor).toBe(jacoco.diff.authors.find((a) => a !== null) ?? null);

    const { rows: changed } = await database.pool.query(
      `select count(*)::int as n, count(code_author)::int as authored from report_details
       where report_id = $1 and class_id is not null and changed`,
      [id],
    );
    expect(changed[0].n).toBeGreaterThan(0);
    expect(changed[0].authored).toBe(changed[0].n);
    const { rows: files } = await database.pool.query(
      `select path, changed, changed_lines, diff_line_covered, diff_line_total, cardinality(line_numbers) as lines
       from report_files where report_id = $1 and changed order by path`,
      [id],
    );
    const changedFile = jacoco.changes.changed.find((f) => files.some((r) => r.path === f.path));
    const row = files.find((r) => r.path === changedFile?.path);
    expect(row?.changed_lines).toEqual(changedFile?.lines);
    // Every file diff-cover found an uncovered changed line in carries diff-cover's figures.
    const stored = Object.fromEntries(
      files.map((r) => [r.path, { covered: r.diff_line_covered, total: r.diff_line_total }]),
    );
    expect(Object.keys(diffCover.files).length).toBeGreaterThan(1);
    for (const [path, lines] of Object.entries(diffCover.files)) expect(stored[path], path).toEqual(lines);
    expect(row?.lines).toBe(jacoco.coverage.files.find((f) => f.path === row?.path)?.lines.length);
  });

  it('leaves the same rows when the generation runs again (a re-run or a retried job)', async () => {
    const id = reports[1] as string;
    const before = await storedCounts(database.pool, id);
    await generateReport(database.db, { ...input(id, jacoco, 'incremental'), passingGrade: 1 }, riskService());
    const risky = await storedCounts(database.pool, id);
    expect(risky.risks).toBeGreaterThan(before.risks);
    await generateReport(database.db, { ...input(id, jacoco, 'incremental'), passingGrade: 1 }, riskService());
    expect(await storedCounts(database.pool, id)).toEqual(risky);
    expect({ ...risky, risks: before.risks }).toEqual(before);
  });

  it('refuses an incremental report without its diff and writes nothing', async () => {
    const id = reports[4] as string;
    await expect(generateReport(database.db, { ...input(id, jacoco, 'incremental'), diff: null })).rejects.toThrow(
      /needs the diff/,
    );
    expect(await storedCounts(database.pool, id)).toEqual({ classes: 0, methods: 0, files: 0, risks: 0 });
  });
});

describe('generateReport on a real LCOV report (no classes, no instruction counter)', () => {
  it('stores null for the counters LCOV lacks and one class row per file holding its functions', async () => {
    const id = reports[2] as string;
    await generateReport(database.db, input(id, lcov, 'full'));
    const figures = await storedFigures(database.pool, id);
    expect(figures.counters).toEqual(lcov.coverage.counters);
    expect(figures.counters.instruction).toBeNull();
    expect(figures.counters.complexity).toBeNull();
    const counts = await storedCounts(database.pool, id);
    expect(counts.classes).toBe(lcov.coverage.files.length);
    expect(counts.methods).toBe(methodCount(lcov));
    const { rows } = await database.pool.query(
      `select name, file_path, instruction_covered, line_covered from report_details
       where report_id = $1 and class_id is null order by name`,
      [id],
    );
    expect(rows.map((r) => r.name)).toEqual(lcov.coverage.files.map((f) => f.path).sort());
    expect(rows.every((r) => r.name === r.file_path && r.instruction_covered === null)).toBe(true);
  });

  it('stores the incremental line figures of diff-cover for an LCOV report', async () => {
    const id = reports[3] as string;
    await generateReport(database.db, input(id, lcov, 'incremental'));
    const figures = await storedFigures(database.pool, id);
    expect(figures.counters).toEqual(lcov.diff.incremental.totals);
    const diffCover = diffCoverFigures('js/diff-cover-lcov.json');
    expect([figures.diffLineCovered, figures.diffLineTotal]).toEqual([diffCover.covered, diffCover.total]);
    expect(lcov.diff.incremental.methods.length).toBeGreaterThan(0);
  });
});
