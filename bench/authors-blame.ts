// Naming the authors of changed methods on a range several people wrote. ECharts 6.0.0 -> 6.1.0
// (repo-1 of bench/gen/cobertura-echarts.sh) is replayed as one commit per author, six authors
// each taking a slice of the changed files, then a seventh touches every tenth changed JavaScript
// file again, so those have two writers and need `git blame`. Times `sextant coverage --base
// --head --json` warm (methods come from the cache, so what is left is the report, the diff and
// the authors), whole processes, and prints how many files were blamed. With OLD_CLI=<path to
// another build's sextant.mjs> the two builds run interleaved and their JSON must be identical.
// Medians of RUNS (default 5). Run: npx tsx bench/authors-blame.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const source = join(root, 'bench/out/cobertura/repo-1');
const report = join(root, 'bench/out/cobertura/report-1.xml');
const RUNS = Number(process.env.RUNS ?? 5);
const AUTHORS = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eve', 'Finn'];

if (!existsSync(source)) {
  console.log('Generating the ECharts inputs (bench/gen/cobertura-echarts.sh)…');
  execFileSync('bash', [join(root, 'bench/gen/cobertura-echarts.sh')], { stdio: 'inherit' });
}
execFileSync('node', [join(root, 'scripts/build.mjs'), '--cli', '--if-missing'], { stdio: 'inherit' });

const scratch = mkdtempSync(join(tmpdir(), 'sextant-authors-'));
const repo = join(scratch, 'repo');

function git(author: string | null, ...args: string[]): string {
  const who = author ?? 'Bench';
  const env = { ...process.env, GIT_AUTHOR_NAME: who, GIT_AUTHOR_EMAIL: `${who.toLowerCase()}@bench.test` };
  return execFileSync('git', ['-C', repo, '-c', `user.name=${who}`, '-c', 'user.email=bench@bench.test', ...args], {
    encoding: 'utf8',
    env,
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** base, then one commit per author replaying a slice of base..head, then a second writer on some files. */
function multiAuthorHistory(): void {
  execFileSync('git', ['clone', '-q', source, repo]);
  git(null, 'checkout', '-q', '-B', 'multi', 'base');
  const changes = git(null, 'diff', '--no-renames', '--name-status', '-z', 'base', 'head').split('\0').filter(Boolean);
  const files: { status: string; path: string }[] = [];
  for (let i = 0; i + 1 < changes.length; i += 2)
    files.push({ status: changes[i] as string, path: changes[i + 1] as string });
  for (const [index, author] of AUTHORS.entries()) {
    const slice = files.filter((_, i) => i % AUTHORS.length === index);
    const gone = slice.filter((f) => f.status === 'D').map((f) => f.path);
    const kept = slice.filter((f) => f.status !== 'D').map((f) => f.path);
    if (gone.length > 0) git(author, 'rm', '-q', '--', ...gone);
    if (kept.length > 0) git(author, 'checkout', 'head', '--', ...kept);
    git(author, 'commit', '-qm', `${author}'s part of 6.1.0`);
  }
  const again = files.filter((f) => f.status !== 'D' && f.path.endsWith('.js')).filter((_, i) => i % 10 === 0);
  for (const file of again) appendFileSync(join(repo, file.path), '\n// looked at again\n');
  git('Gus', 'commit', '-qam', 'Gus looks again');
  git(null, 'tag', 'head2');
}

interface Run {
  seconds: number;
  cpuSeconds: number;
  json: string;
  blamed: number;
}

function sextant(cli: string, cache: string): Run {
  const start = process.hrtime.bigint();
  const done = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'CPUTIME %U %S',
      'node',
      cli,
      'coverage',
      report,
      '--repo',
      repo,
      '--base',
      'base',
      '--head',
      'head2',
    ].concat(['--json', '--verbose']),
    { encoding: 'utf8', env: { ...process.env, SEXTANT_CACHE_DIR: cache }, maxBuffer: 512 * 1024 * 1024 },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (done.status !== 0) throw new Error(`sextant failed: ${done.stderr}`);
  const cpu = /CPUTIME ([\d.]+) ([\d.]+)/.exec(done.stderr);
  const blamed = /(\d+) files blamed/.exec(done.stderr);
  return {
    seconds,
    cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN,
    json: done.stdout,
    blamed: blamed ? Number(blamed[1]) : Number.NaN,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

try {
  multiAuthorHistory();
  const builds = [{ name: 'this build', cli: join(root, 'packages/cli/dist/sextant.mjs') }];
  if (process.env.OLD_CLI) builds.push({ name: 'OLD_CLI', cli: resolve(process.env.OLD_CLI) });
  const runs = builds.map(() => [] as Run[]);
  // A first run each fills its method cache, so the runs measured differ only in what follows.
  for (const [i, build] of builds.entries()) sextant(build.cli, join(scratch, `cache-${i}`));
  for (let round = 0; round < RUNS; round++) {
    for (const [i, build] of builds.entries()) runs[i]?.push(sextant(build.cli, join(scratch, `cache-${i}`)));
  }
  const commits = git(null, 'rev-list', '--count', 'base..head2').trim();
  const methods = (JSON.parse(runs[0]?.[0]?.json ?? '{}') as { diff?: { methods: unknown[] } }).diff?.methods.length;
  console.log(
    `ECharts 6.0.0 -> 6.1.0 as ${commits} commits by ${AUTHORS.length + 1} authors; ${methods} changed methods`,
  );
  console.log(`warm runs (methods from the cache), medians of ${RUNS}:`);
  for (const [i, build] of builds.entries()) {
    const mine = runs[i] as Run[];
    const seconds = median(mine.map((r) => r.seconds));
    const cpu = median(mine.map((r) => r.cpuSeconds));
    const blamed = Number.isNaN(mine[0]?.blamed ?? Number.NaN) ? 'not reported' : `${mine[0]?.blamed} files blamed`;
    console.log(`  ${build.name.padEnd(12)} ${seconds.toFixed(3)} s wall, ${cpu.toFixed(2)} CPU s, ${blamed}`);
  }
  if (builds.length > 1) {
    const same = runs.every((mine) => mine.every((r) => r.json === runs[0]?.[0]?.json));
    console.log(same ? 'JSON identical across builds and runs' : '!!!!!!!! the builds print different JSON !!!!!!!!');
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores here)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
