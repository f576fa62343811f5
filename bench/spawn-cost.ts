// What starting git costs the server's main thread when the process is large (issue 41: 16 s of a
// report's main thread in ChildProcess.spawn from a ~1 GB process): `git --version` ROUNDS times from a
// process holding HEAP_MB of JS objects, spawned here (child_process, fork + exec from this process,
// which blocks its thread until the child has exec'd) and through the spawn helper (spawner.ts: a small
// process forked before the heap grew). Figures: the main thread's blocked wall ms in the spawn call and
// its CPU ms per command, and the wall ms to the program's close; medians, load average beside.
//   npx tsx bench/spawn-cost.ts   (HEAP_MB=1000 ROUNDS=30)
// Last run (2026-11-29, load 28–31 on 2 shared cores, RSS 1,621 MB), two alternating passes:
//   child_process.spawn here   main thread blocked 282.79 / 127.23 ms, CPU 18.54 / 15.91 ms, to close 350.7 / 174.9 ms
//   through the spawn helper   main thread blocked   0.42 /   0.37 ms, CPU  0.39 /  0.33 ms, to close 141.9 /  93.5 ms
import { loadavg } from 'node:os';
import { startProgram, stopSpawnHelper, useSpawnHelper } from '../packages/coverage/src/node/index.ts';

const heapMb = Number(process.env.HEAP_MB ?? 1000);
const rounds = Number(process.env.ROUNDS ?? 30);
await useSpawnHelper();
const kept: unknown[] = [];
for (let i = 0; i < heapMb * 10_000; i++) kept.push({ a: i, b: `s${i}`, c: [i, i + 1] });

async function measure(): Promise<{ blockedMs: number; cpuMs: number; closeMs: number }[]> {
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const program = startProgram('git', ['--version'], { stdout: 'ignore', stderr: 'ignore' });
    const blockedMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    await new Promise((resolve, reject) => {
      program.on('close', resolve);
      program.on('error', reject);
    });
    runs.push({ blockedMs, cpuMs: (used.user + used.system) / 1000, closeMs: performance.now() - started });
  }
  return runs;
}

const median = (values: number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1] ?? 0;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const rows: [string, Awaited<ReturnType<typeof measure>>][] = [];
// Alternating, so both see the same load.
for (let pass = 0; pass < 2; pass++) {
  stopSpawnHelper();
  rows.push(['child_process.spawn here', await measure()]);
  await useSpawnHelper();
  rows.push(['through the spawn helper', await measure()]);
}
console.log(`RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (${kept.length} objects), load ${load()}`);
for (const [name, runs] of rows) {
  console.log(
    `${name.padEnd(26)} main thread blocked ${median(runs.map((r) => r.blockedMs)).toFixed(2)} ms, ` +
      `CPU ${median(runs.map((r) => r.cpuMs)).toFixed(2)} ms, to close ${median(runs.map((r) => r.closeMs)).toFixed(1)} ms (medians of ${runs.length})`,
  );
}
stopSpawnHelper();
