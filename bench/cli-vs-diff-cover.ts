// `sextant coverage --base --head --json` against Debian's diff-cover on the same c8 Cobertura
// report and the same git diff (ECharts 6.0.0 -> 6.1.0, see bench/gen/cobertura-echarts.sh), whole
// processes, runs interleaved so both see the same machine load. Medians of RUNS (default 5) runs,
// wall and CPU seconds; sextant per round: cold (empty cache), warm (the cache the cold run filled),
// warm without the commit pair's kept changes (git diffs again, methods from the cache), without
// --base/--head, and `--lines-only --no-cache` (the figure diff-cover gives, and nothing else).
// Also checks both print the same line diff coverage (covered/total) and says so loudly if not.
// Three inputs: the 8 MB report, and the 57 MB one over identical copies and over distinct copies.
// Node 20 reads NODE_EXTRA_CA_CERTS (set on some machines for a proxy's certificate authority) as
// it starts, ~90 ms here: the timed processes run without it, and the bench prints Node's start
// with and without it (KEEP_EXTRA_CA_CERTS=1 keeps it). SEXTANT_NODE=<path> runs sextant on
// another Node (not NODE, which npx sets to its own).
// Run: npx tsx bench/cli-vs-diff-cover.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, printTable } from './table.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'bench/out/cobertura');
const cli = join(root, 'packages/cli/dist/sextant.mjs');
const RUNS = Number(process.env.RUNS ?? 5);
const COPIES = Number(process.env.COPIES ?? 7);
const NODE = process.env.SEXTANT_NODE ?? 'node';
const withoutCaCerts: NodeJS.ProcessEnv = { ...process.env };
delete withoutCaCerts.NODE_EXTRA_CA_CERTS;
const timedEnv = process.env.KEEP_EXTRA_CA_CERTS ? process.env : withoutCaCerts;

type LineFigure = { covered: number; total: number };
type Timed<T> = { seconds: number; cpuSeconds: number; result: T };

// CPU seconds (user + system, the git children included) of the last checked() process, from GNU time.
let lastCpuSeconds = 0;

function timed<T>(run: () => T): Timed<T> {
  const start = process.hrtime.bigint();
  const result = run();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuSeconds: lastCpuSeconds, result };
}

function checked(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = timedEnv): string {
  const done = spawnSync('/usr/bin/time', ['-f', 'CPUTIME %U %S', command, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${done.stderr || done.error}`);
  const cpu = /CPUTIME ([\d.]+) ([\d.]+)\s*$/.exec(done.stderr);
  lastCpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN;
  return done.stdout;
}

function diffCover(repo: string, report: string, jsonOut: string): LineFigure {
  checked('diff-cover', [report, '--compare-branch=base', '--json-report', jsonOut], repo);
  const json = JSON.parse(readFileSync(jsonOut, 'utf8')) as { total_num_lines: number; total_num_violations: number };
  return { covered: json.total_num_lines - json.total_num_violations, total: json.total_num_lines };
}

/**
 * `cache`: the folder of method extractions kept between runs (empty for a cold run); null:
 * `--lines-only --no-cache`, diff-cover's figure alone, nothing kept or read.
 */
function sextant(repo: string, report: string, withDiff: boolean, cache: string | null): LineFigure | null {
  const diffArgs = withDiff
    ? ['--base', 'base', '--head', 'head', ...(cache === null ? ['--lines-only', '--no-cache'] : [])]
    : [];
  const env = { ...timedEnv, SEXTANT_CACHE_DIR: cache ?? '' };
  const stdout = checked(NODE, [cli, 'coverage', report, '--repo', repo, ...diffArgs, '--json'], repo, env);
  const json = JSON.parse(stdout) as { diff?: { lines: LineFigure; methods: unknown[] } };
  return json.diff ? { covered: json.diff.lines.covered, total: json.diff.lines.total } : null;
}

/** Median wall seconds of an empty Node program, with the environment given. */
function nodeStart(env: NodeJS.ProcessEnv): number {
  const seconds: number[] = [];
  for (let run = 0; run < 9; run++) seconds.push(timed(() => checked(NODE, ['-e', '0'], root, env)).seconds);
  return median(seconds);
}

function ensureInputs(): void {
  const wanted = [join(out, 'report-1.xml'), join(out, `report-${COPIES}.xml`), join(out, `repo-${COPIES}-distinct`)];
  if (wanted.every(existsSync)) return;
  console.log('Generating the reports and repositories (bench/gen/cobertura-echarts.sh)…');
  execFileSync('bash', [join(root, 'bench/gen/cobertura-echarts.sh')], {
    stdio: 'inherit',
    env: { ...process.env, COPIES: String(COPIES) },
  });
}

ensureInputs();
// Rebuilt when a source is newer than the bundle, so the bench never measures stale code.
execFileSync('node', [join(root, 'scripts/build.mjs'), '--cli', '--if-missing'], { stdio: 'inherit' });
const scratch = mkdtempSync(join(tmpdir(), 'sextant-bench-'));
let mismatches = 0;
const rows: string[][] = [];
try {
  // The large report twice: over identical copies (sextant extracts each file pair once) and over
  // copies that differ by a comment at each file's end (every pair extracted, as in a real project).
  const variants = [
    { repo: 'repo-1', report: 'report-1.xml', note: '' },
    { repo: `repo-${COPIES}`, report: `report-${COPIES}.xml`, note: ', identical copies' },
    { repo: `repo-${COPIES}-distinct`, report: `report-${COPIES}.xml`, note: ', distinct copies' },
  ];
  for (const variant of variants) {
    const repo = join(out, variant.repo);
    const report = join(out, variant.report);
    const megabytes = statSync(report).size / 1e6;
    const times = {
      diffCover: [] as number[],
      cold: [] as number[],
      warm: [] as number[],
      methodsOnly: [] as number[],
      noDiff: [] as number[],
      linesOnly: [] as number[],
    };
    const cpu = { diffCover: [] as number[], cold: [] as number[], warm: [] as number[] };
    const cache = join(scratch, 'cache');
    let theirs: LineFigure | null = null;
    let ours: LineFigure | null = null;
    for (let run = 0; run < RUNS; run++) {
      rmSync(cache, { recursive: true, force: true });
      const a = timed(() => diffCover(repo, report, join(scratch, 'diff-cover.json')));
      const cold = timed(() => sextant(repo, report, true, cache));
      const warm = timed(() => sextant(repo, report, true, cache));
      // The previous sessions' warm run: the commit pair's changes forgotten, git asked again.
      rmSync(join(cache, 'changes'), { recursive: true, force: true });
      const methodsOnly = timed(() => sextant(repo, report, true, cache));
      const c = timed(() => sextant(repo, report, false, cache));
      const linesOnly = timed(() => sextant(repo, report, true, null));
      times.diffCover.push(a.seconds);
      times.cold.push(cold.seconds);
      times.warm.push(warm.seconds);
      times.methodsOnly.push(methodsOnly.seconds);
      times.noDiff.push(c.seconds);
      times.linesOnly.push(linesOnly.seconds);
      cpu.diffCover.push(a.cpuSeconds);
      cpu.cold.push(cold.cpuSeconds);
      cpu.warm.push(warm.cpuSeconds);
      theirs = a.result;
      ours = warm.result;
      if (
        JSON.stringify(cold.result) !== JSON.stringify(warm.result) ||
        JSON.stringify(methodsOnly.result) !== JSON.stringify(warm.result) ||
        JSON.stringify(linesOnly.result) !== JSON.stringify(warm.result)
      ) {
        mismatches++;
        console.error(`!!!!!!!! cold ${JSON.stringify(cold.result)} and warm ${JSON.stringify(warm.result)} differ`);
      }
    }
    const same = theirs !== null && ours !== null && theirs.covered === ours.covered && theirs.total === ours.total;
    if (!same) {
      mismatches++;
      console.error(
        `\n!!!!!!!! MISMATCH on ${megabytes.toFixed(1)} MB: diff-cover ${JSON.stringify(theirs)}, sextant ${JSON.stringify(ours)} !!!!!!!!\n`,
      );
    }
    const [dc, cold, warm, methodsOnly, nd, lo] = [
      times.diffCover,
      times.cold,
      times.warm,
      times.methodsOnly,
      times.noDiff,
      times.linesOnly,
    ].map(median) as [number, number, number, number, number, number];
    const [dcCpu, coldCpu, warmCpu] = [cpu.diffCover, cpu.cold, cpu.warm].map(median) as [number, number, number];
    const seconds = (value: number) => `${value.toFixed(3)} s`;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    rows.push([
      `${megabytes.toFixed(1)} MB${variant.note}`,
      `${ours?.covered}/${ours?.total}${same ? ' (same)' : ' (DIFFERENT)'}`,
      seconds(dc),
      seconds(cold),
      ratio(dc, cold),
      seconds(warm),
      ratio(dc, warm),
      seconds(methodsOnly),
      ratio(dc, methodsOnly),
      seconds(nd),
      seconds(lo),
      ratio(dc, lo),
      `${dcCpu.toFixed(2)} / ${coldCpu.toFixed(2)} / ${warmCpu.toFixed(2)} s`,
    ]);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const header = [
  'report',
  'changed lines covered',
  'diff-cover',
  'sextant cold',
  'speed-up',
  'sextant warm',
  'speed-up',
  'methods cached only',
  'speed-up',
  'sextant, no diff',
  'lines only',
  'speed-up',
  'CPU diff-cover / cold / warm',
];
console.log(
  `\nmedians of ${RUNS} runs each, interleaved (ECharts 6.0.0 -> 6.1.0, c8 Cobertura); ` +
    'CPU = user + system seconds of the whole process and its git children (steadier on a shared machine);\n' +
    "cold = empty cache (every changed file parsed), warm = the same command again (the commit pair's diff, " +
    'methods and authors read from the cache in SEXTANT_CACHE_DIR), methods cached only = warm with the ' +
    'commit pair forgotten (git diffs again; extractions from the cache), lines only = --lines-only ' +
    "--no-cache (diff-cover's figure alone: no method parsed, nothing cached)",
);
printTable(header, rows);
const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const caCerts = process.env.NODE_EXTRA_CA_CERTS;
console.log(
  caCerts
    ? `Node ${version} start (node -e 0): ${nodeStart(process.env).toFixed(3)} s with NODE_EXTRA_CA_CERTS=${caCerts} ` +
        `as this machine sets it, ${nodeStart(withoutCaCerts).toFixed(3)} s without; ` +
        `sextant ran ${process.env.KEEP_EXTRA_CA_CERTS ? 'with' : 'without'} it`
    : `Node ${version} start (node -e 0): ${nodeStart(process.env).toFixed(3)} s (NODE_EXTRA_CA_CERTS not set)`,
);
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (2 cores here)`,
);
if (mismatches > 0) {
  console.error(`\n${mismatches} MISMATCH(ES) between diff-cover and sextant line figures`);
  process.exitCode = 1;
}
