import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type DiffCoverage, FORMATS, type FormatName } from '@sextant/coverage';
import {
  changesCacheStats,
  extractionStats,
  type LoadedReport,
  nowMs,
  ONE_SHOT_WORKERS_FROM_FILES,
  type Phase,
  phaseTimes,
  reportWithDiff,
  validateRef,
} from '@sextant/coverage/node';
import { baseDirOf } from '../base-dir.ts';
import { DEFAULT_GRADES } from '../grades.ts';
import { coverageJson } from '../report-json.ts';
import { candidatesText, counted, coverageTable } from '../table.ts';
import { type CommandIo, UsageError } from '../usage.ts';

export const COVERAGE_USAGE =
  'sextant coverage FILE... [--repo DIR] [--base-dir DIR] [--base REV --head REV [--merge-base]] ' +
  `[--format auto|${FORMATS.join('|')}] [--json] [--fail-under-diff PCT] [--lines-only] [--no-cache] [--verbose]`;

/**
 * Exit codes: 0 fine, 1 error (a one-line reason on stderr; also a gate with nothing to measure
 * because report files could not be placed), 2 diff coverage under --fail-under-diff.
 */
export const EXIT_OK = 0;
export const EXIT_NOTHING_PLACED = 1;
export const EXIT_BELOW_THRESHOLD = 2;

interface CoverageArgs {
  files: string[];
  repo: string | null;
  baseDir: string | undefined;
  base: string | null;
  head: string | null;
  mergeBase: boolean;
  linesOnly: boolean;
  format: FormatName | 'auto';
  json: boolean;
  failUnderDiff: number | null;
  cache: boolean;
  verbose: boolean;
}

const PHASE_NAMES: Record<Phase, string> = {
  report: 'report read',
  'changes cache': 'changes read from the cache',
  diff: 'git diff',
  methods: 'changed methods',
  authors: 'authors',
  figures: 'figures',
};

/** `git diff at 180 ms, report read at 420 ms, …`: the steps in the order they finished (they overlap). */
export function phaseSummary(times: ReadonlyMap<Phase, number>): string {
  return [...times]
    .sort(([, a], [, b]) => a - b)
    .map(([phase, ms]) => `${PHASE_NAMES[phase]} at ${Math.round(ms)} ms`)
    .join(', ');
}

/** `--verbose`: where the time went, on stderr. */
function runSummary(ms: number, diff: { blamedFiles: number } | null, linesOnly: boolean): string {
  const s = extractionStats;
  let methods = '';
  if (diff && changesCacheStats.hit) {
    methods = linesOnly ? '; the diff from the cache' : '; the diff, changed methods and authors from the cache';
  } else if (diff && !linesOnly) {
    methods =
      `; methods of ${counted(s.files, 'changed file')}: ${s.cached} from the cache, ${counted(s.copies, 'copy', 'copies')}, ` +
      `${s.extracted} extracted (${counted(s.workers, 'worker thread')}, ${s.inProcess} in the main thread; ` +
      `${s.tokenizer} tokenizer); ` +
      `${counted(diff.blamedFiles, 'file')} blamed`;
  }
  const steps = phaseTimes.size > 0 ? ` (${phaseSummary(phaseTimes)})` : '';
  return `sextant: ${Math.round(ms)} ms${steps}${methods}\n`;
}

/** SEXTANT_WORKERS=N fixes the method extraction threads (0: in-process); default by the work's size. */
function workersFromEnv(env: NodeJS.ProcessEnv = process.env): number | 'auto' {
  const wanted = Number(env.SEXTANT_WORKERS);
  return env.SEXTANT_WORKERS && Number.isInteger(wanted) && wanted >= 0 ? wanted : 'auto';
}

/**
 * Where method extractions are kept between runs: SEXTANT_CACHE_DIR, else the XDG cache folder
 * (`~/.cache/sextant`). Entries are keyed by git object ids, so one folder serves every repository.
 */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SEXTANT_CACHE_DIR) return env.SEXTANT_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'sextant');
}

function parseCoverageArgs(argv: readonly string[]): CoverageArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      repo: { type: 'string' },
      'base-dir': { type: 'string' },
      base: { type: 'string' },
      head: { type: 'string' },
      'merge-base': { type: 'boolean', default: false },
      'lines-only': { type: 'boolean', default: false },
      format: { type: 'string', default: 'auto' },
      json: { type: 'boolean', default: false },
      'fail-under-diff': { type: 'string' },
      'no-cache': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0) throw new UsageError('no coverage report given');
  if (positionals.filter((file) => file === '-').length > 1)
    throw new UsageError('standard input (-) can be read once');
  const format = values.format ?? 'auto';
  if (format !== 'auto' && !(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown format "${format}"`);
  }
  if ((values.base === undefined) !== (values.head === undefined)) {
    throw new UsageError('--base and --head go together');
  }
  if (values['merge-base'] && values.base === undefined) throw new UsageError('--merge-base needs --base and --head');
  if (values['lines-only'] && values.base === undefined) throw new UsageError('--lines-only needs --base and --head');
  if (values.base !== undefined) validateRef(values.base);
  if (values.head !== undefined) validateRef(values.head);
  let failUnderDiff: number | null = null;
  if (values['fail-under-diff'] !== undefined) {
    const raw = values['fail-under-diff'];
    failUnderDiff = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(failUnderDiff) || failUnderDiff < 0 || failUnderDiff > 100) {
      throw new UsageError(`--fail-under-diff wants a percentage from 0 to 100, not "${raw}"`);
    }
    if (values.base === undefined) throw new UsageError('--fail-under-diff needs --base and --head');
  }
  return {
    files: positionals,
    repo: values.repo ?? null,
    baseDir: values['base-dir'],
    base: values.base ?? null,
    head: values.head ?? null,
    mergeBase: values['merge-base'] ?? false,
    linesOnly: values['lines-only'] ?? false,
    format: format as FormatName | 'auto',
    json: values.json ?? false,
    failUnderDiff,
    cache: !values['no-cache'],
    verbose: values.verbose ?? false,
  };
}

/** The `--fail-under-diff` verdict, carried by `--json` as `gate`. */
export interface GateVerdict {
  threshold: number;
  /** `nothing-placed`: no changed line was measured and some report files could not be placed. */
  status: 'passed' | 'below' | 'nothing-placed';
  reason: string | null;
}

/**
 * No coverable changed line passes ("no changed lines"), unless files of the report could not be
 * placed: then the changed lines they hold may simply not have been found, and a gate that passed
 * would pass on nothing.
 */
export function gateVerdict(threshold: number, report: LoadedReport, diff: DiffCoverage | null): GateVerdict {
  const ratio = diff?.lines.ratio ?? null;
  if (ratio === null && report.unmappedFiles.length > 0) {
    return { threshold, status: 'nothing-placed', reason: nothingPlacedReason(report) };
  }
  if (ratio !== null && ratio * 100 < threshold) {
    const reason = `diff coverage ${(ratio * 100).toFixed(2)}% is below --fail-under-diff ${threshold}%`;
    return { threshold, status: 'below', reason };
  }
  return { threshold, status: 'passed', reason: null };
}

const SHOWN_UNPLACED = 3;

function nothingPlacedReason(report: LoadedReport): string {
  const candidates = new Map((report.ambiguousFiles ?? []).map((a) => [a.path, a.candidates]));
  const shown = report.unmappedFiles.slice(0, SHOWN_UNPLACED).map((path) => {
    const several = candidates.get(path);
    return several ? `${path} (could be ${candidatesText(several)})` : `${path} (no such file in the repository)`;
  });
  const more = report.unmappedFiles.length - shown.length;
  return (
    `--fail-under-diff cannot pass on nothing: no changed line was measured, and ` +
    `${counted(report.unmappedFiles.length, 'file')} of the report could not be placed: ${shown.join(', ')}` +
    `${more > 0 ? `, and ${more} more` : ''}; run from the folder the report was made in, or give --base-dir`
  );
}

/** `sextant coverage`: figures of one or more reports, and with --base/--head the diff figures. */
export async function coverageCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseCoverageArgs(argv);
  const started = nowMs();
  const wantsRepo = args.repo !== null || args.base !== null;
  const repo = args.repo === null ? io.cwd : resolve(io.cwd, args.repo);
  if (args.repo !== null && !statSync(repo, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--repo ${args.repo}: no such folder`);
  }
  const { report, diff, baseIsAncestor, uncommittedReportFiles } = await reportWithDiff({
    files: args.files,
    format: args.format,
    repo: wantsRepo ? repo : null,
    base: args.base,
    head: args.head,
    mergeBase: args.mergeBase,
    linesOnly: args.linesOnly,
    // As `sextant upload` takes it: `.` is the top.
    ...(args.baseDir !== undefined && { baseDir: await baseDirOf(args.baseDir, io.cwd) }),
    methods: {
      cacheDir: args.cache ? cacheFolder() : null,
      workers: workersFromEnv(),
      // This process does nothing else meanwhile: a few hundred files parse faster in it.
      workersFromFiles: ONE_SHOT_WORKERS_FROM_FILES,
    },
  });

  if (args.verbose) io.stderr(runSummary(nowMs() - started, diff, args.linesOnly));
  if (uncommittedReportFiles.length > 0) {
    const [first] = uncommittedReportFiles;
    const count = uncommittedReportFiles.length;
    const which = count === 1 ? `${first} differs` : `${count} files of the report (${first}, …) differ`;
    io.stderr(
      `sextant coverage: note: ${which} in the work tree from ${args.head}; if the tests ran on the work ` +
        'tree, the report’s line numbers are not those of the commit compared\n',
    );
  }
  if (baseIsAncestor === false) {
    io.stderr(
      `sextant coverage: note: ${args.base} is not an ancestor of ${args.head}, so what changed on it since ` +
        'they split counts as changed here too; --merge-base compares with where they split, as diff-cover does\n',
    );
  }
  const unparsed = diff?.unparsedFiles ?? [];
  if (unparsed.length > 0 && args.json) {
    const which = unparsed.length === 1 ? unparsed[0] : `${unparsed.length} files (${unparsed[0]}, …)`;
    io.stderr(
      `sextant coverage: note: the methods of ${which} are not known: tree-sitter gave up on the source ` +
        '(broken in a way it cannot recover from in time); their changed lines count, their methods do not\n',
    );
  }
  const gate = args.failUnderDiff === null ? null : gateVerdict(args.failUnderDiff, report, diff);
  if (args.json) {
    const json = { ...coverageJson(report, diff, args.linesOnly), ...(gate && { gate }) };
    io.stdout(`${JSON.stringify(json, null, io.terminal ? 2 : undefined)}\n`);
  } else {
    const grades = DEFAULT_GRADES;
    io.stdout(coverageTable(report, diff, { grades, colour: io.colour, linesOnly: args.linesOnly }));
  }
  if (gate?.status === 'nothing-placed') {
    io.stderr(`sextant: ${gate.reason}\n`);
    return EXIT_NOTHING_PLACED;
  }
  if (gate?.status === 'below') {
    io.stderr(`sextant: ${gate.reason}\n`);
    return EXIT_BELOW_THRESHOLD;
  }
  return EXIT_OK;
}
