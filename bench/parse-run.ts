// Shared by parse-jacoco.ts and parse-lcov.ts: run a measured child, best of N runs, print a table.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const RUNS = Number(process.env.RUNS ?? 3);
const child = new URL('./parse-child.ts', import.meta.url).pathname;

/** Wall and CPU seconds (all threads: GC and JIT threads count), peak resident set. */
export type Measure = { seconds: number; cpuSeconds: number; peakRssMb: number; detail?: Record<string, unknown> };

export function input(path: string, generator: string): { path: string; mb: number } {
  if (!existsSync(path)) throw new Error(`${path} is missing: run ${generator} first`);
  return { path, mb: statSync(path).size / 1e6 };
}

/** Our parser or the saxes pass, in a child process that times itself (start-up excluded). */
export async function node(mode: 'ours' | 'saxes', path: string): Promise<Measure> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child, mode, path], {
    maxBuffer: 1 << 20,
  });
  const { seconds, cpuSeconds, peakRssMb, ...detail } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  return { seconds, cpuSeconds, peakRssMb, detail };
}

/** Any other program under GNU time: wall seconds and peak RSS of the whole process. */
export async function program(command: string, args: string[], cwd?: string): Promise<Measure> {
  const { stderr, stdout } = await run('/usr/bin/time', ['-f', 'TIME %e %U %S %M', command, ...args], {
    cwd,
    maxBuffer: 64 << 20,
  });
  const match = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
  if (!match) throw new Error(`no timing from ${command}: ${stderr.slice(-500)}`);
  const [, wall, user, system, rssKb] = match.map(Number) as number[];
  return {
    seconds: wall as number,
    cpuSeconds: (user as number) + (system as number),
    peakRssMb: (rssKb as number) / 1024,
    detail: { stdout, stderr },
  };
}

/** Best (fastest) of runs, and the peak RSS of that run. */
export async function best(measure: () => Promise<Measure>, runs = RUNS): Promise<Measure> {
  let fastest: Measure | null = null;
  for (let i = 0; i < runs; i++) {
    const m = await measure();
    if (!fastest || m.seconds < fastest.seconds) fastest = m;
  }
  return fastest as Measure;
}

export function table(mb: number, rows: [string, Measure][]): void {
  const ours = rows[0]?.[1];
  const head = ['wall s', 'MB/s', 'CPU s', 'MB/CPU s', 'peak RSS MB', 'wall vs ours'];
  console.log(`${'parser'.padEnd(44)}${head.map((h) => h.padStart(13)).join('')}`);
  for (const [name, m] of rows) {
    const cells = [
      m.seconds.toFixed(2),
      (mb / m.seconds).toFixed(1),
      m.cpuSeconds.toFixed(2),
      (mb / m.cpuSeconds).toFixed(1),
      m.peakRssMb.toFixed(0),
      ours ? `${(m.seconds / ours.seconds).toFixed(1)}x` : '',
    ];
    console.log(`${name.padEnd(44)}${cells.map((c) => c.padStart(13)).join('')}`);
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores here)`,
  );
}
