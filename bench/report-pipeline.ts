// Wall time and peak RSS of a full incremental report for a large Java project (20,000 classes by
// default), on PGlite and on PostgreSQL: the pipeline's steps in one process (parse both runs → merge
// → map → diff → generateReport), and the same report through the real server (`sextant upload` of
// both runs, POST /api/reports, getReport polled until SUCCESS). Peer for the bulk writes: the same
// class and method rows through drizzle's insert builder (1,000 objects per insert).
// Input: npx tsx bench/gen/java-two-commits.ts   Run: npx tsx bench/report-pipeline.ts
//
// Last run, 2026-11-29 11:51–12:18 UTC, load average 23–31 on 2 shared cores (wall times are load, not code;
// CPU s and RSS are the figures to compare). Before (2749ad0, server alone, load 25): PGlite upload → SUCCESS
// 523.5 s wall, 63.0 s CPU, peak RSS 936 MB, 874 MB at start (PGlite's initdb in the worker), holds 2,526
// of 16.7 s engine CPU, 502 over 200 ms. After (spawn helper, initdb in a process of its own, socket
// messages joined once):
//   steps in-process, pglite     wall  53.3 s, CPU 18.1 s, peak RSS  820 MB (365 at start); generateReport 24.9 s
//   upload → SUCCESS, pglite     wall  97.3 s, CPU 29.3 s, peak RSS 1068 MB (460 at start); upload 15.3 s,
//                                create → SUCCESS 81.9 s; holds 1,133 of 7.7 s engine CPU, 4 over 200 ms
//   detail-row writes, pglite    unnest 30.5 s, drizzle insert builder 387.4 s (12.7x)
//   steps in-process, postgres   wall 125.7 s, CPU 13.7 s, peak RSS  519 MB (125 at start); generateReport 50.1 s
//   upload → SUCCESS, postgres   wall 199.0 s, CPU 24.4 s, peak RSS  715 MB (190 at start); upload 71.1 s,
//                                create → SUCCESS 127.9 s
//   detail-row writes, postgres  unnest 18.3 s, drizzle insert builder 108.5 s (5.9x)
// The goals (4 s PostgreSQL, 5 s PGlite, peak RSS ≤ 600 MB, quiet machine) are not shown by this run: at
// this load no wall figure can; the server's peak RSS (1,068 MB PGlite, 715 MB PostgreSQL) is above 600 MB.
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
