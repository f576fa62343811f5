// Time to merge 20 JaCoCo exec dumps of a 20,000-class app: ours (parse, probe-wise OR, write) against
// JaCoCo's own merge (Debian libjacoco-java's Ant `jacoco:merge`) over the same files, same run.
// The dumps are written in JaCoCo's documented format (header, session, one block per class), each
// run setting a random third of every class's probes. Run: npx tsx bench/exec-merge.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExecData, mergeExecData, parseJacocoExec, writeJacocoExec } from '@sextant/coverage';

const RUNS = 20;
const CLASSES = 20_000;
let seed = 38;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const shape = Array.from({ length: CLASSES }, (_, i) => ({
  id: (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).slice(-16).padStart(16, '0'),
  name: `com/example/app/module${i % 40}/Class${i}`,
  probes: 8 + Math.floor(random() * 56),
}));
const dump = (run: number): ExecData => ({
  sessions: [{ id: `qa-${run}`, start: 1_700_000_000_000 + run, dump: 1_700_000_100_000 + run }],
  classes: shape.map((c) => ({ ...c, probes: Array.from({ length: c.probes }, () => random() < 1 / 3) })),
});

const dir = mkdtempSync(join(tmpdir(), 'sx-bench-exec-'));
const files = Array.from({ length: RUNS }, (_, run) => {
  const path = join(dir, `run-${run}.exec`);
  writeFileSync(path, writeJacocoExec(dump(run)));
  return path;
});
const mb = files.reduce((sum, f) => sum + readFileSync(f).length, 0) / 2 ** 20;
console.log(`${RUNS} dumps of ${CLASSES} classes: ${mb.toFixed(1)} MB`);

/** Wall time, and CPU time (user + system): the CPU time depends far less on what else the machine runs. */
type Timing = { ms: number; cpuMs: number };

function ours(): Timing {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const merged = mergeExecData(files.map((f) => parseJacocoExec(readFileSync(f), f)));
  writeFileSync(join(dir, 'ours.exec'), writeJacocoExec(merged));
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

const jars = [
  'org.jacoco.ant',
  'org.jacoco.core',
  'org.jacoco.report',
  'org.jacoco.agent',
  'asm',
  'asm-commons',
  'asm-tree',
];
const build = join(dir, 'merge.xml');
writeFileSync(
  build,
  `<project default="m" xmlns:jacoco="antlib:org.jacoco.ant"><taskdef uri="antlib:org.jacoco.ant" resource="org/jacoco/ant/antlib.xml"><classpath>${jars.map((j) => `<pathelement location="/usr/share/java/${j}.jar"/>`).join('')}</classpath></taskdef><target name="m"><jacoco:merge destfile="${dir}/jacoco.exec">${files.map((f) => `<file file="${f}"/>`).join('')}</jacoco:merge></target></project>`,
);
/** Ant under /usr/bin/time, which prints the CPU seconds of the JVM and its threads. */
function jacoco(): Timing {
  const start = performance.now();
  const times = join(dir, 'time.txt');
  execFileSync('/usr/bin/time', ['-o', times, '-f', '%U %S', 'ant', '-q', '-noinput', '-f', build]);
  const [user, system] = readFileSync(times, 'utf8').trim().split(/\s+/).map(Number);
  return { ms: performance.now() - start, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000 };
}

const best = <T>(runs: number, f: () => T) => Array.from({ length: runs }, f);
const oursRuns = best(3, ours);
const jacocoRuns = best(3, jacoco);
const min = (values: number[]) => Math.min(...values);
/** The machine's 1-minute load average beside each figure: timings taken while others work are noisy. */
const load = () => `load average ${loadavg()[0]?.toFixed(2)}`;
const figures = (runs: Timing[]) =>
  `wall ${min(runs.map((r) => r.ms)).toFixed(0)} ms, CPU ${min(runs.map((r) => r.cpuMs)).toFixed(0)} ms`;
console.log(`ours   parse + merge + write   best of 3: ${figures(oursRuns)} (${load()})`);
console.log(
  `JaCoCo 0.8.6 Ant jacoco:merge  best of 3: ${figures(jacocoRuns)} (the JVM's and Ant's start included; ${load()})`,
);
const probes = (bytes: Uint8Array) =>
  JSON.stringify(parseJacocoExec(bytes).classes.sort((a, b) => (a.id < b.id ? -1 : 1)));
console.log(
  `same probes as JaCoCo's merge: ${probes(readFileSync(join(dir, 'ours.exec'))) === probes(readFileSync(join(dir, 'jacoco.exec')))}`,
);
rmSync(dir, { recursive: true, force: true });
