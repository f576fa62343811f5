// Wall time and peak RSS of a full incremental report for a large Java project (20,000 classes by
// default), on PGlite and on PostgreSQL: the pipeline's steps in one process (parse both runs → merge
// → map → diff → generateReport), and the same report through the real server (`sextant upload` of
// both runs, POST /api/reports, getReport polled until SUCCESS). Peer for the bulk writes: the same
// class and method rows through drizzle's insert builder (1,000 objects per insert).
// Input: npx tsx bench/gen/java-two-commits.ts   Run: npx tsx bench/report-pipeline.ts
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { input } from './parse-run.ts';

const run = promisify(execFile);
const out = new URL('./out/report-pipeline/', import.meta.url).pathname;
const targets = (process.env.TARGETS ?? 'pglite,postgres').split(',');
const xml = input(`${out}run-1.xml`, 'npx tsx bench/gen/java-two-commits.ts');

type Measure = {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  rssAtStartMb: number;
  steps: Record<string, number>;
  [detail: string]: unknown;
};

async function child(script: string, args: string[]): Promise<Measure> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', new URL(script, import.meta.url).pathname, ...args],
    {
      maxBuffer: 1 << 20,
      env: process.env,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measure;
}

const rows: [string, Measure][] = [];
for (const target of targets) {
  rows.push([`steps in-process, ${target}`, await child('./report-pipeline-child.ts', ['pipeline', target])]);
  rows.push([`upload → SUCCESS via server, ${target}`, await child('./report-pipeline-server.ts', [target])]);
  rows.push([`detail-row writes, ${target}`, await child('./report-pipeline-child.ts', ['writes', target])]);
}

console.log(`input: 2 JaCoCo runs of ${(xml.mb * 2).toFixed(0)} MB; wall and CPU s exclude process start`);
for (const [name, m] of rows) {
  const { seconds, cpuSeconds, peakRssMb, rssAtStartMb, steps, ...detail } = m;
  console.log(
    `\n${name}: wall ${seconds.toFixed(2)} s, CPU ${cpuSeconds.toFixed(2)} s, peak RSS ${peakRssMb.toFixed(0)} MB ` +
      `(${rssAtStartMb.toFixed(0)} MB at start, database open)`,
  );
  for (const [step, s] of Object.entries(steps)) console.log(`  ${step.padEnd(34)}${s.toFixed(2).padStart(9)} s`);
  console.log(`  ${JSON.stringify(detail)}`);
  const orm = steps['drizzle insert builder'];
  const ours = steps['unnest inserts'];
  if (orm !== undefined && ours !== undefined)
    console.log(`  drizzle insert builder / unnest: ${(orm / ours).toFixed(1)}x`);
}
console.log(
  `\nload average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (2 cores here)`,
);
