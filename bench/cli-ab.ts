// Two builds of the CLI against each other on one warm run: `sextant coverage --base --head
// --json` on the 57 MB ECharts Cobertura (repo-7 of bench/gen/cobertura-echarts.sh), whole
// processes, the builds alternating run by run (the order flipped every round) so a drifting
// machine weighs on both alike. Each build keeps its own method cache (a build's cache is keyed by
// its own code, and two builds sharing a folder would keep dropping each other's entries). The
// JSON of both must be identical. Medians, 25th percentiles and minima of RUNS (default 20).
// Make the other build with `git worktree`, or copy packages/cli/dist before rebuilding.
// FORGET_CHANGES=1 removes each cache's kept commit-pair changes before every run: warm methods,
// the diff asked of git again (a new commit pair in CI with the cache folder kept).
// DISTINCT=1 runs on repo-7-distinct, whose copies share no blob (every file's methods its own).
// Run: OLD_CLI=<path to the other build's sextant.mjs> npx tsx bench/cli-ab.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'bench/out/cobertura');
const repo = join(out, `repo-${process.env.COPIES ?? 7}${process.env.DISTINCT === '1' ? '-distinct' : ''}`);
const report = join(out, `report-${process.env.COPIES ?? 7}.xml`);
const RUNS = Number(process.env.RUNS ?? 20);
// Absolute: the builds run with the bench repository as their working directory.
const other = process.env.OLD_CLI && resolve(process.env.OLD_CLI);
if (!other || !existsSync(other)) throw new Error('set OLD_CLI to the other build’s sextant.mjs');

if (!existsSync(report)) execFileSync('bash', [join(root, 'bench/gen/cobertura-echarts.sh')], { stdio: 'inherit' });
execFileSync('node', [join(root, 'scripts/build.mjs'), '--cli', '--if-missing'], { stdio: 'inherit' });

const builds = [
  { name: 'other (OLD_CLI)', cli: other, cache: mkdtempSync(join(tmpdir(), 'sextant-ab-')), seconds: [] as number[] },
  {
    name: 'this checkout',
    cli: join(root, 'packages/cli/dist/sextant.mjs'),
    cache: mkdtempSync(join(tmpdir(), 'sextant-ab-')),
    seconds: [] as number[],
  },
];

function run(build: (typeof builds)[number]): string {
  const args = [build.cli, 'coverage', report, '--repo', repo, '--base', 'base', '--head', 'head', '--json'];
  const env = { ...process.env, SEXTANT_CACHE_DIR: build.cache };
  if (process.env.FORGET_CHANGES) rmSync(join(build.cache, 'changes'), { recursive: true, force: true });
  const started = process.hrtime.bigint();
  const done = spawnSync('node', args, { cwd: repo, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (done.status !== 0) throw new Error(`${build.name} failed: ${done.stderr}`);
  build.seconds.push(seconds);
  return done.stdout;
}

try {
  // A first run each fills its cache; it is not counted.
  const [a, b] = builds.map((build) => {
    const json = run(build);
    build.seconds.length = 0;
    return JSON.stringify(JSON.parse(json));
  });
  if (a !== b) throw new Error('the two builds print different JSON');
  for (let round = 0; round < RUNS; round++) for (const build of round % 2 ? [...builds].reverse() : builds) run(build);
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  console.log(
    `warm runs${process.env.FORGET_CHANGES ? ' (changes forgotten)' : ''} of sextant coverage --base --head --json, ${report}, ${RUNS} each, alternating`,
  );
  for (const build of builds) {
    const sorted = [...build.seconds].sort((x, y) => x - y);
    const [median, p25, min] = [at(sorted, 0.5), at(sorted, 0.25), sorted[0] ?? 0].map((s) => `${s.toFixed(3)} s`);
    console.log(`${build.name.padEnd(16)} median ${median}  p25 ${p25}  min ${min}`);
  }
  console.log(
    `JSON identical; load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores here)`,
  );
} finally {
  for (const build of builds) rmSync(build.cache, { recursive: true, force: true });
}
