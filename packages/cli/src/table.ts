import {
  type Bounded,
  COUNTER_KINDS,
  type CounterKind,
  counterRatio,
  type DiffCoverage,
  figuresByPackage,
} from '@sextant/coverage';
import type { LoadedReport } from '@sextant/coverage/node';

export interface Grades {
  excellent: number;
  passing: number;
}

export interface TableOptions {
  grades: Grades;
  colour: boolean;
  /** `--lines-only`: no changed methods were looked for, so none are listed. */
  linesOnly?: boolean;
}

const COLOURS = { success: '\u001b[32m', warning: '\u001b[33m', danger: '\u001b[31m', dim: '\u001b[2m' } as const;
const RESET = '\u001b[0m';

/** Specification point 9: at or above excellent is success, at or above passing warning, else danger. */
function grade(ratio: number, grades: Grades): keyof typeof COLOURS {
  if (ratio >= grades.excellent) return 'success';
  return ratio >= grades.passing ? 'warning' : 'danger';
}

function percent(ratio: number | null, options: TableOptions): string {
  if (ratio === null) return '—';
  // Rounded down, like JaCoCo's HTML: 99.96% must not read as 100%.
  const text = `${(Math.floor(ratio * 1000) / 10).toFixed(1)}%`;
  return options.colour ? `${COLOURS[grade(ratio, options.grades)]}${text}${RESET}` : text;
}

const fraction = (covered: number | string, total: number) => `${covered}/${total}`;
/** `1 file`, `2 files` (`things`: the plural when it is not `thing` + s). */
export const counted = (count: number, thing: string, things = `${thing}s`) =>
  `${count} ${count === 1 ? thing : things}`;
/** `a or b`, `a or b or c or 47 more`: the files an ambiguous path could name, the first few of them. */
export function candidatesText(candidates: readonly string[], shown = 3): string {
  if (candidates.length <= shown + 1) return candidates.join(' or ');
  return `${candidates.slice(0, shown).join(' or ')} or ${candidates.length - shown} more`;
}
/** `245/302`, or `80–84/145` for a range a merge left (the percentage and grade are the lower bound's). */
function counterCell(item: Bounded, kind: CounterKind): string {
  const c = item.counters[kind];
  if (!c) return '—';
  const most = item.bounds?.[kind]?.coveredAtMost;
  const covered = most !== undefined && most > c.covered ? `${c.covered}–${most}` : `${c.covered}`;
  return fraction(covered, c.covered + c.missed);
}

const RANGE_NOTE =
  '  a–b: a range. JaCoCo’s XML keeps per-line sums, not probes, so where runs covered different parts of one\n' +
  '  line the merged figure lies between a and b; percentages and grades use a, the lower bound.';

function countersBlock(title: string, item: Bounded, options: TableOptions): string[] {
  const rows = [title];
  let ranged = false;
  for (const kind of COUNTER_KINDS) {
    const cell = counterCell(item, kind);
    ranged ||= cell.includes('–');
    rows.push(`  ${kind.padEnd(12)} ${cell.padStart(15)}  ${percent(counterRatio(item.counters[kind]), options)}`);
  }
  if (ranged) rows.push(RANGE_NOTE);
  return rows;
}

/** A monorepo's packages (`workspaceFolders`) with their lines and changed lines; nothing outside one. */
function packagesBlock(report: LoadedReport, diff: DiffCoverage | null, options: TableOptions): string[] {
  if (!report.packages?.length) return [];
  const rows = figuresByPackage(report.packages, report.coverage, diff);
  if (rows.length === 0) return [];
  const name = (folder: string) => folder || '(no package)';
  const width = Math.max(...rows.map((r) => name(r.folder).length), 7);
  const out = [
    '',
    `Packages (${rows.length})`,
    `  ${'package'.padEnd(width)}  ${'lines'.padStart(13)}${diff ? `  ${'changed'.padStart(9)}` : ''}`,
  ];
  for (const r of rows) {
    const lines = `${fraction(r.lines.covered, r.lines.total).padStart(13)} ${percent(r.lines.total ? r.lines.covered / r.lines.total : null, options)}`;
    const changed = r.diffLines
      ? `  ${fraction(r.diffLines.covered, r.diffLines.total).padStart(9)} ${percent(r.diffLines.total ? r.diffLines.covered / r.diffLines.total : null, options)}`
      : '';
    out.push(`  ${name(r.folder).padEnd(width)}  ${lines}${changed}`);
  }
  return out;
}

/** The readable report: totals; with a diff, changed files and the uncovered changed methods. */
export function coverageTable(report: LoadedReport, diff: DiffCoverage | null, options: TableOptions): string {
  const { coverage } = report;
  const out = countersBlock(
    `Coverage (${coverage.format}, ${counted(coverage.files.length, 'file')})`,
    coverage,
    options,
  );
  if (report.unmappedFiles.length > 0) {
    out.push('', `Not in the repository (${report.unmappedFiles.length}):`);
    const candidates = new Map((report.ambiguousFiles ?? []).map((a) => [a.path, a.candidates]));
    for (const path of report.unmappedFiles) {
      const several = candidates.get(path);
      out.push(several ? `  ${path}: could be ${candidatesText(several)}` : `  ${path}`);
    }
  }
  out.push(...packagesBlock(report, diff, options));
  if (!diff) return `${out.join('\n')}\n`;
  out.push(
    '',
    `Diff ${diff.base.slice(0, 12)}..${diff.head.slice(0, 12)}: changed lines ${fraction(diff.lines.covered, diff.lines.total)}  ${
      diff.lines.ratio === null ? 'no changed coverable lines' : percent(diff.lines.ratio, options)
    }`,
  );
  const measured = diff.files.filter((f) => f.total > 0);
  if (measured.length > 0) {
    const width = Math.max(...measured.map((f) => f.path.length), 4);
    out.push(`  ${'file'.padEnd(width)}  ${'lines'.padStart(9)}  diff`);
    for (const f of measured) {
      out.push(`  ${f.path.padEnd(width)}  ${fraction(f.covered, f.total).padStart(9)}  ${percent(f.ratio, options)}`);
    }
  }
  if (options.linesOnly) return `${out.join('\n')}\n`;
  out.push(
    '',
    ...countersBlock(
      `Changed methods (${diff.incremental.methods.length})`,
      { counters: diff.incremental.totals, bounds: diff.incremental.bounds },
      options,
    ),
  );
  const uncovered = diff.incremental.methods
    .map((m, i) => ({ m, author: diff.authors[i] }))
    .filter(({ m }) => m.measured && !m.covered);
  if (uncovered.length > 0) {
    out.push('', `Uncovered changed methods (${uncovered.length}):`);
    for (const { m, author } of uncovered) {
      const name = `${m.class ? `${m.class}.` : ''}${m.name}${m.signature ?? ''}`;
      out.push(`  ${m.file}:${m.startLine}-${m.endLine}  ${name}  ${m.status}  ${author ?? 'unknown author'}`);
    }
  }
  if (diff.unparsedFiles.length > 0) {
    out.push(
      '',
      `Methods not known (tree-sitter gave up on the source) in ${counted(diff.unparsedFiles.length, 'file')}:`,
    );
    for (const path of diff.unparsedFiles) out.push(`  ${path}`);
  }
  // Tests, scripts, or code no test loaded (c8 without --all): listed in --json as measured: false.
  const unmeasured = diff.incremental.methods.filter((m) => !m.measured);
  if (unmeasured.length > 0) {
    const files = new Set(unmeasured.map((m) => m.file)).size;
    out.push(
      '',
      `${counted(unmeasured.length, 'more changed method')} in ${counted(files, 'file')} the report does not cover (listed by --json).`,
    );
  }
  return `${out.join('\n')}\n`;
}
