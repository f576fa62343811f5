import { type CounterBounds, type Counters, carriedMethodKey, type MethodCoverage } from '@sextant/coverage';
import type { Db } from '../../../db/client.ts';
import { GeneratedRowsRepository, STAGE_CHUNK_ROWS, STAGE_CLASS_ROWS } from '../repository.ts';
import { caseMethodRows } from './case-summaries.ts';
import { COUNTER_COLUMNS, classEntries, counterValues, detailRows } from './detail-rows.ts';
import { fileRows } from './file-rows.ts';
import { MethodChanges, mostFrequentAuthor } from './method-changes.ts';
import { requirementRows } from './requirement-summaries.ts';
import { writeSummaries } from './summaries.ts';
import type { CoverageRisks, GenerateInput, GenerateResult } from './types.ts';

/** Classes whose class and method rows are built at a time (a few thousand rows), then staged. */
const BUILT_CLASSES = 1_000;

/**
 * Stores a report's figures, class and method rows, per-file line data and risk items, replacing what an
 * earlier (or killed) run of the same report wrote. Stage and swap (issue 41): the class, method and file
 * rows go in as a new generation, in short statements that let other requests through on PGlite, unseen
 * by readers; one short transaction then writes the figures, the small summary tables and the risk items
 * and makes the new generation the shown one, so a reader sees the old report or the whole new one.
 * The replaced generation is deleted afterwards, a chunk at a time. Without `risks` (the engine's own
 * tests and bench), no risk item is written.
 */
export async function generateReport(db: Db, input: GenerateInput, risks?: CoverageRisks): Promise<GenerateResult> {
  if (input.coverageType === 'incremental' && !input.diff) {
    throw new Error('an incremental report needs the diff coverage of its two versions');
  }
  const repository = new GeneratedRowsRepository(db);
  const entries = classEntries(input.coverage);
  // Taken before the class ids, so every row of this generation has an id above its number.
  const generation = await repository.newGeneration();
  const classIds = await repository.takeDetailIds(entries.length);
  const carried = input.carried?.figures;
  const carriedFrom = carried
    ? (path: string, method: MethodCoverage) => carried.methods.get(`${path}\u0000${carriedMethodKey(method)}`) ?? null
    : undefined;
  const changes = new MethodChanges(input.diff, input.changes);
  const caseRows = caseMethodRows(input.cases ?? [], changes);
  const requirementSummaries = requirementRows(input.diff, input.requirementChanges ?? []);
  const files = fileRows(input.coverage, input.diff, input.changes, carried?.lines);
  const figures = reportFigures(input);
  const values = counterValues(figures);

  const shown = await repository.shownGeneration(input.reportId);
  if (shown === null) throw new Error(`report ${input.reportId} does not exist (deleted while running?)`);
  // What a killed run staged (never shown) goes first; generation numbers only grow.
  await repository.dropGenerations(input.reportId, -1, shown);
  await repository.dropGenerations(input.reportId, shown, generation);
  // Built a slice of classes at a time and staged at once, so the rows of a large report are never all
  // in memory together (issue 41: peak RSS); class ids were taken above, so a method row names its class.
  const details = { classRows: 0, methodRows: 0 };
  for (let start = 0; start < entries.length; start += BUILT_CLASSES) {
    const end = Math.min(start + BUILT_CLASSES, entries.length);
    const rows = detailRows(entries.slice(start, end), classIds.slice(start, end), changes, carriedFrom);
    await repository.stageDetails(input.reportId, generation, rows.classes, STAGE_CLASS_ROWS);
    await repository.stageDetails(input.reportId, generation, rows.methods, STAGE_CHUNK_ROWS);
    details.classRows += rows.classes.rowCount;
    details.methodRows += rows.methods.rowCount;
  }
  await repository.stageFiles(input.reportId, generation, files);

  const result = await repository.inTransaction(async (writer) => {
    await writer.lock(input.reportId);
    await writer.setFigures(
      input.reportId,
      {
        counters: COUNTER_COLUMNS.map((column, i) => ({ column, value: values[i] ?? null })),
        diffLineCovered: figures.diffLineCovered,
        diffLineTotal: figures.diffLineTotal,
        codeAuthor: figures.codeAuthor,
        newCommit: input.newCommit,
        packages: input.packages ?? [],
        carried: input.carried?.summary ?? null,
      },
      generation,
    );
    await writeSummaries(writer.client, input.reportId, {
      diff: input.diff,
      cases: caseRows,
      requirements: requirementSummaries,
    });
    const recorded = await risks?.record(writer.client, {
      reportId: input.reportId,
      appId: input.appId,
      version: input.version,
      testType: input.testType ?? null,
      coverage: input.coverage,
      diff: input.coverageType === 'incremental' ? input.diff : null,
      requirement: input.requirements[0] ?? null,
      passingGrade: input.passingGrade,
    });
    return {
      counts: {
        classRows: details.classRows,
        methodRows: details.methodRows,
        fileRows: files.rowCount,
        riskItemsOpened: recorded?.opened ?? 0,
        riskItemsResolved: recorded?.resolved ?? 0,
      },
      announce: recorded?.announce,
    };
  });
  await repository.dropGenerations(input.reportId, -1, generation);
  await result.announce?.();
  return result.counts;
}

type ReportFigures = {
  counters: Counters;
  /** Upper bounds of the counters a merge left as ranges. */
  bounds?: CounterBounds;
  diffLineCovered: number | null;
  diffLineTotal: number | null;
  codeAuthor: string | null;
};

/** Full: the coverage's totals. Incremental: counters over the changed methods, diff-cover's line figures. */
export function reportFigures(input: GenerateInput): ReportFigures {
  if (input.coverageType === 'full' || !input.diff) {
    const { counters, bounds } = input.coverage;
    return { counters, bounds, diffLineCovered: null, diffLineTotal: null, codeAuthor: null };
  }
  return {
    counters: input.diff.incremental.totals,
    bounds: input.diff.incremental.bounds,
    diffLineCovered: input.diff.lines.covered,
    diffLineTotal: input.diff.lines.total,
    codeAuthor: mostFrequentAuthor(input.diff.authors),
  };
}
