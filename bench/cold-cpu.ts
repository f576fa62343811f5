// Where a cold `sextant coverage --base --head --json` run spends its CPU, by thread, on the
// ECharts inputs of bench/gen/cobertura-echarts.sh (the 8 MB report, and the 57 MB one over
// identical and over distinct copies). A preload (`--import`) reads /proc/self at exit: the main
// thread's own ticks, the threads still alive (V8's compiler and GC helpers, libuv's pool), the
// method extraction workers (ended by then: the process's total less the live threads'), and git
// (the children's ticks). A second run per round under `--trace-opt --trace-deopt` counts V8's
// optimising compilations, the time they took on background threads, and the deoptimisations.
// Medians of RUNS (default 5) rounds, an empty method cache each run; /proc ticks are 10 ms.
// Run: npx tsx bench/cold-cpu.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, printTable } from './table.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'bench/out/cobertura');
const cli = join(root, 'packages/cli/dist/sextant.mjs');
const RUNS = Number(process.env.RUNS ?? 5);
const env: NodeJS.ProcessEnv = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

const PRELOAD = `
import { readdirSync, readFileSync } from 'node:fs';
const ticks = (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
process.on('exit', () => {
  const self = ticks(readFileSync('/proc/self/stat', 'utf8'));
  const threads = readdirSync('/proc/self/task').map((tid) => {
    const t = ticks(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8'));
    return { main: Number(tid) === process.pid, ms: (t[11] + t[12]) * 10 };
  });
  const main = threads.find((t) => t.main)?.ms ?? 0;
  const helpers = threads.filter((t) => !t.main).reduce((sum, t) => sum + t.ms, 0);
  const all = (self[11] + self[12]) * 10;
  const git = (self[13] + self[14]) * 10;
  process.stderr.write('COLDCPU ' + JSON.stringify({ main, helpers, workers: all - main - helpers, git }) + '\\n');
});
`;

interface Split {
  wall: number;
  main: number;
  helpers: number;
  workers: number;
  git: number;
}

function run(repo: string, report: string, scratch: string, flags: string[]): { stderr: string; wall: number } {
  const cache = join(scratch, 'cache');
  rmSync(cache, { recursive: true, force: true });
  const args = [...flags, cli, 'coverage', report, '--base', 'base', '--head', 'head', '--json'];
  const start = process.hrtime.bigint();
  const done = spawnSync('node', args, {
    cwd: repo,
    env: { ...env, SEXTANT_CACHE_DIR: cache },
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (done.status !== 0) throw new Error(`sextant failed in ${repo}: ${done.stderr}`);
  // --trace-opt writes to stdout, after or between the JSON: both streams are searched.
  return { stderr: `${done.stderr}\n${done.stdout}`, wall };
}

function split(repo: string, report: string, scratch: string, preload: string): Split {
  const { stderr, wall } = run(repo, report, scratch, ['--import', preload]);
  const line = /COLDCPU (\{.*\})/.exec(stderr);
  if (!line) throw new Error('the preload printed nothing');
  return { wall, ...(JSON.parse(line[1] as string) as Omit<Split, 'wall'>) };
}

function compilations(repo: string, report: string, scratch: string) {
  const { stderr } = run(repo, report, scratch, ['--trace-opt', '--trace-deopt']);
  let count = 0;
  let backgroundMs = 0;
  for (const took of stderr.matchAll(/completed compiling .*? took ([\d.]+), ([\d.]+), ([\d.]+) ms/g)) {
    count++;
    backgroundMs += Number(took[2]);
  }
  const deopts = [...stderr.matchAll(/bailout \(kind: deopt-(?:eager|soft|lazy)/g)].length;
  return { count, backgroundMs, deopts };
}

if (!existsSync(cli)) throw new Error('build the CLI first: node scripts/build.mjs --cli');
if (!existsSync(join(out, 'report-7.xml'))) {
  spawnSync('bash', [join(root, 'bench/gen/cobertura-echarts.sh')], { stdio: 'inherit' });
}
const scratch = mkdtempSync(join(tmpdir(), 'sextant-cold-cpu-'));
const preload = join(scratch, 'preload.mjs');
writeFileSync(preload, PRELOAD);
const cases = [
  { name: '8.2 MB', repo: join(out, 'repo-1'), report: join(out, 'report-1.xml') },
  { name: '57.4 MB, identical copies', repo: join(out, 'repo-7'), report: join(out, 'report-7.xml') },
  { name: '57.4 MB, distinct copies', repo: join(out, 'repo-7-distinct'), report: join(out, 'report-7.xml') },
];
try {
  const rows: string[][] = [];
  for (const { name, repo, report } of cases) {
    const splits: Split[] = [];
    const compiled: ReturnType<typeof compilations>[] = [];
    for (let round = 0; round < RUNS; round++) {
      splits.push(split(repo, report, scratch, preload));
      compiled.push(compilations(repo, report, scratch));
    }
    const ms = (key: keyof Split) => `${Math.round(median(splits.map((s) => s[key])))}`;
    const total = median(splits.map((s) => s.main + s.helpers + s.workers + s.git));
    rows.push([
      name,
      ms('wall'),
      `${Math.round(total)}`,
      ms('main'),
      ms('workers'),
      ms('helpers'),
      ms('git'),
      `${median(compiled.map((c) => c.count))}`,
      `${Math.round(median(compiled.map((c) => c.backgroundMs)))}`,
      `${median(compiled.map((c) => c.deopts))}`,
    ]);
  }
  const header = [
    'report',
    'wall ms',
    'CPU ms',
    'main thread',
    'extraction workers',
    'V8/libuv helper threads',
    'git',
    'optimised compilations',
    'their background ms',
    'deopts',
  ];
  console.log(`\ncold runs (empty method cache), medians of ${RUNS}; CPU from /proc in 10 ms ticks`);
  printTable(header, rows);
  const load = loadavg().map((l) => l.toFixed(1));
  console.log(`load average at the end: ${load.join(' ')}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
