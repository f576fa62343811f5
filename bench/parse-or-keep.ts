// Issue 33: the pipeline parses an upload again (gather-coverage.ts) after the intake parsed it to
// check it. Is keeping the intake's model (stored next to the upload, read back by the pipeline)
// cheaper than the second parse? Per report, each step in a process of its own (its peak RSS its
// own): the parse; writing the parsed model with v8.serialize, as objects (what the pipeline
// uses) and as columns (typed arrays per file: the least a compact form could read back); and
// reading each back. Best of RUNS (default 3); CPU seconds are the steadier figure on a busy machine.
// Run: npx tsx bench/parse-or-keep.ts [report...]   (default: the parse benches' inputs in bench/out)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { type Coverage, lineColumns } from '../packages/coverage/src/index.ts';
import { readCoverageFile } from '../packages/coverage/src/node/index.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const run = promisify(execFile);
type Step = 'parse' | 'keep-objects' | 'keep-columns' | 'load-objects' | 'load-columns';
type Measure = { seconds: number; cpuSeconds: number; peakRssMb: number; bytes?: number };

/** The model as plain objects: every lazy property (lines, methods) read, as a structured clone reads it. */
function asObjects(coverage: Coverage): unknown {
  return {
    ...coverage,
    files: coverage.files.map((f) => ({
      ...f,
      lines: f.lines,
      classes: f.classes.map((c) => ({ ...c, methods: c.methods })),
    })),
  };
}

/** The lines as six typed columns per file; classes and methods as objects still. */
function asColumns(coverage: Coverage): unknown {
  const files = coverage.files.map((f) => {
    const c = lineColumns(f);
    const ints = new Int32Array(c.length * 4);
    const instructions = new Float64Array(c.length * 2);
    for (let i = 0; i < c.length; i++) {
      ints.set([c.line(i), Math.min(c.hits(i), 2 ** 31 - 1), c.branchesCovered(i), c.branchesTotal(i)], i * 4);
      instructions[i * 2] = c.instructionsCovered(i) ?? -1;
      instructions[i * 2 + 1] = c.instructionsMissed(i) ?? -1;
    }
    return {
      path: f.path,
      language: f.language,
      counters: f.counters,
      ints,
      instructions,
      classes: f.classes.map((k) => ({ ...k, methods: k.methods })),
    };
  });
  return { format: coverage.format, counters: coverage.counters, sourceRoots: coverage.sourceRoots, files };
}

async function child(step: Step, report: string, kept: string): Promise<void> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let bytes: number | undefined;
  if (step === 'parse') await readCoverageFile(report);
  else if (step.startsWith('keep')) {
    const coverage = await readCoverageFile(report);
    // Only the writing is timed: the parse happened anyway at the intake.
    const from = performance.now();
    const fromCpu = process.cpuUsage();
    const data = serialize(step === 'keep-objects' ? asObjects(coverage) : asColumns(coverage));
    writeFileSync(kept, data);
    bytes = data.length;
    const used = process.cpuUsage(fromCpu);
    const seconds = (performance.now() - from) / 1000;
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    console.log(JSON.stringify({ seconds, cpuSeconds: (used.user + used.system) / 1e6, peakRssMb, bytes }));
    return;
  } else deserialize(readFileSync(kept));
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      bytes,
    }),
  );
}

async function measure(step: Step, report: string, kept: string): Promise<Measure> {
  let best: Measure | null = null;
  for (let i = 0; i < RUNS; i++) {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, 'child', step, report, kept],
      { maxBuffer: 1 << 20 },
    );
    const m = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measure;
    if (!best || m.cpuSeconds < best.cpuSeconds) best = m;
  }
  return best as Measure;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'child') {
  await child(rest[0] as Step, rest[1] as string, rest[2] as string);
} else {
  const out = new URL('./out/', import.meta.url).pathname;
  const defaults = ['report-pipeline/run-1.xml', 'lcov/lcov.info', 'cobertura/report-7.xml'].map((p) => join(out, p));
  const reports = (mode ? [mode, ...rest] : defaults).filter((p) => existsSync(p));
  const dir = mkdtempSync(join(tmpdir(), 'parse-or-keep-'));
  console.log(
    `${'report'.padEnd(30)}${'step'.padEnd(14)}${['wall s', 'CPU s', 'peak RSS MB', 'kept MB'].map((h) => h.padStart(12)).join('')}`,
  );
  for (const report of reports) {
    const name = `${report.split('/').slice(-2).join('/')} ${(statSync(report).size / 1e6).toFixed(0)} MB`;
    for (const step of ['parse', 'keep-objects', 'load-objects', 'keep-columns', 'load-columns'] as Step[]) {
      const kept = join(dir, step.endsWith('objects') ? 'objects.v8' : 'columns.v8');
      const m = await measure(step, report, kept);
      const cells = [
        m.seconds.toFixed(2),
        m.cpuSeconds.toFixed(2),
        m.peakRssMb.toFixed(0),
        m.bytes ? (m.bytes / 1e6).toFixed(0) : '',
      ];
      console.log(`${name.padEnd(30)}${step.padEnd(14)}${cells.map((c) => c.padStart(12)).join('')}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores here)`,
  );
}
