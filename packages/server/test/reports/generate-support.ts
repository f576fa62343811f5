import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Counters,
  type Coverage,
  type DiffCoverage,
  diffCoverage,
  mapPaths,
  mergeCoverage,
  type RevisionChanges,
} from '@sextant/coverage';
import { changesBetweenCommits, listFiles, readCoverageFile, resolveCommits } from '@sextant/coverage/node';
import type pg from 'pg';
import type { Database } from '../../src/db/client.ts';

const FIXTURES = new URL('../../../coverage/fixtures/', import.meta.url).pathname;

export type FixtureCase = {
  coverage: Coverage;
  changes: RevisionChanges;
  diff: DiffCoverage;
  head: string;
  cleanup: () => void;
};

/**
 * A real tool's report (packages/coverage/fixtures/<tool>/) mapped onto its two-commit repository
 * (tags base and head), with the engine's changes and diff figures between them.
 */
export async function loadFixtureCase(tool: string, report: string | string[]): Promise<FixtureCase> {
  const dir = mkdtempSync(join(tmpdir(), `sx-generate-${tool}-`));
  const repo = join(dir, 'repo');
  execFileSync('git', ['clone', '--quiet', '--branch', 'main', '--', join(FIXTURES, tool, 'repo.bundle'), repo]);
  const [base, head] = (await resolveCommits(repo, ['base', 'head'])) as [string, string];
  // Several reports (runs of one build) are merged, as the pipeline's env-report step does.
  const runs = await Promise.all([report].flat().map((name) => readCoverageFile(join(FIXTURES, tool, name))));
  const parsed = runs.length === 1 ? (runs[0] as Coverage) : mergeCoverage(runs);
  const coverage = mapPaths(parsed, await listFiles(repo, head)).coverage;
  const changes = await changesBetweenCommits(repo, base, head);
  return {
    coverage,
    changes,
    diff: diffCoverage(changes, coverage),
    head,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The same report as if the tests had run every line, branch and method. */
export function fullyCovered(coverage: Coverage): Coverage {
  const all = (counters: Counters): Counters =>
    Object.fromEntries(
      Object.entries(counters).map(([kind, c]) => [kind, c && { covered: c.covered + c.missed, missed: 0 }]),
    ) as Counters;
  return {
    ...coverage,
    counters: all(coverage.counters),
    files: coverage.files.map((file) => ({
      ...file,
      counters: all(file.counters),
      lines: file.lines.map((l) => ({
        ...l,
        hits: Math.max(1, l.hits),
        branchesCovered: l.branchesTotal,
        instructionsCovered:
          l.instructionsCovered === null ? null : l.instructionsCovered + (l.instructionsMissed ?? 0),
        instructionsMissed: l.instructionsMissed === null ? null : 0,
      })),
      classes: file.classes.map((cls) => ({
        ...cls,
        counters: all(cls.counters),
        methods: cls.methods.map((m) => ({ ...m, counters: all(m.counters) })),
      })),
    })),
  };
}

/** A team, an app and `count` reports of it, straight into the tables (the writer needs only the rows). */
export async function insertReports(
  database: Database,
  count: number,
): Promise<{ appId: string; reportIds: string[] }> {
  const q = (text: string, values: unknown[]) => database.pool.query(text, values);
  const suffix = Math.random().toString(36).slice(2);
  const team = await q('insert into teams (name) values ($1) returning id', [`team-${suffix}`]);
  const app = await q(
    `insert into apps (team_id, name, language, repo_url, default_branch, coverage_source, ingestion_token_hash)
     values ($1, $2, 'java', 'https://example.test/repo.git', 'main', 'upload', $3) returning id`,
    [team.rows[0].id, `app-${suffix}`, `hash-${suffix}`],
  );
  const appId = app.rows[0].id as string;
  const reportIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const report = await q(
      `insert into reports (app_id, name, base_version, new_version, env_type, test_type, coverage_type)
       values ($1, $2, 'base', 'head', 'test', 1, 'incremental') returning id`,
      [appId, `report-${i}`],
    );
    reportIds.push(report.rows[0].id as string);
  }
  return { appId, reportIds };
}

/** Row counts a generation writes for a report. */
export async function storedCounts(pool: pg.Pool, reportId: string) {
  const { rows } = await pool.query(
    `select
       (select count(*) from report_details where report_id = $1 and class_id is null)::int as classes,
       (select count(*) from report_details where report_id = $1 and class_id is not null)::int as methods,
       (select count(*) from report_files where report_id = $1)::int as files,
       (select count(*) from risk_items where report_id = $1)::int as risks`,
    [reportId],
  );
  return rows[0] as { classes: number; methods: number; files: number; risks: number };
}

/** The report row's twelve counters as the model's Counters (null where absent). */
export async function storedFigures(pool: pg.Pool, reportId: string) {
  const { rows } = await pool.query('select * from reports where id = $1', [reportId]);
  const r = rows[0];
  const counter = (kind: string) =>
    r[`${kind}_covered`] === null
      ? null
      : { covered: Number(r[`${kind}_covered`]), missed: Number(r[`${kind}_total`]) - Number(r[`${kind}_covered`]) };
  const counters = Object.fromEntries(
    ['instruction', 'branch', 'line', 'complexity', 'method', 'class'].map((k) => [k, counter(k)]),
  ) as Counters;
  return {
    counters,
    diffLineCovered: r.diff_line_covered === null ? null : Number(r.diff_line_covered),
    diffLineTotal: r.diff_line_total === null ? null : Number(r.diff_line_total),
    codeAuthor: r.code_author as string | null,
  };
}
