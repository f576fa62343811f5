// A first (cold) `sextant coverage --base --head --json` with one of the modules compiled to
// WebAssembly against the same build with its JavaScript twin: WHAT=tokens (the default) the
// scanner's tokenizer (SEXTANT_JS_TOKENS=1), WHAT=lines the Cobertura line reader
// (SEXTANT_JS_LINES=1; LINES_ONLY=1 adds --lines-only --no-cache). Whole processes on the
// ECharts Cobertura of bench/gen/cobertura-echarts.sh (REPORT=1: 8 MB, 7: 57 MB identical copies,
// 7-distinct), an empty cache folder each run, the two alternating (the order flipped every
// round). Prints medians of wall seconds and CPU seconds (user + system, its git children
// included) over RUNS (default 9), and, unless CALLGRIND=0, the instructions of CALLGRIND_RUNS
// (default 2) runs each under valgrind's callgrind, which count the same on a fast or a slow
// moment of a shared machine (about ±3% run to run: V8 compiles in background threads). The
// JSON of both must be identical.
// Run: npx tsx bench/cold-compiled.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './table.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'bench/out/cobertura');
const which = process.env.REPORT ?? '1';
const repo = join(out, `repo-${which}`);
const report = join(out, `report-${which.replace('-distinct', '')}.xml`);
const RUNS = Number(process.env.RUNS ?? 9);
const CALLGRIND_RUNS = process.env.CALLGRIND === '0' ? 0 : Number(process.env.CALLGRIND_RUNS ?? 2);
const cli = join(root, 'packages/cli/dist/sextant.mjs');
const COMPARED = {
  tokens: { name: 'tokenizer', variable: 'SEXTANT_JS_TOKENS' },
  lines: { name: 'Cobertura line reader', variable: 'SEXTANT_JS_LINES' },
} as const;
const what = COMPARED[(process.env.WHAT ?? 'tokens') as keyof typeof COMPARED];
if (!what) throw new Error(`WHAT=${process.env.WHAT}: tokens or lines`);
const DIFF_ARGS = ['--repo', repo, '--base', 'base', '--head', 'head'];
const linesOnly = process.env.LINES_ONLY === '1' ? ['--lines-only', '--no-cache'] : [];

if (!existsSync(repo)) execFileSync('bash', [join(root, 'bench/gen/cobertura-echarts.sh')], { stdio: 'inherit' });
execFileSync('node', [join(root, 'scripts/build.mjs'), '--cli', '--if-missing'], { stdio: 'inherit' });

const variants = [
  {
    name: `WebAssembly ${what.name}`,
    env: {},
    wall: [] as number[],
    cpu: [] as number[],
    instructions: [] as number[],
  },
  {
    name: `JavaScript ${what.name} (${what.variable}=1)`,
    env: { [what.variable]: '1' },
    wall: [] as number[],
    cpu: [] as number[],
    instructions: [] as number[],
  },
];
type Variant = (typeof variants)[number];

/** Node reads NODE_EXTRA_CA_CERTS as it starts (about 90 ms here): left out, as a CI runner would. */
const baseEnv = () => {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
};

function run(variant: Variant, prefix: string[]): { stdout: string; stderr: string; wall: number } {
  const cache = mkdtempSync(join(tmpdir(), 'sextant-cold-'));
  try {
    const args = [...prefix, 'node', cli, 'coverage', report, ...DIFF_ARGS, ...linesOnly];
    const env = { ...baseEnv(), ...variant.env, SEXTANT_CACHE_DIR: cache };
    const started = process.hrtime.bigint();
    const done = spawnSync(args[0] as string, [...args.slice(1), '--json'], {
      cwd: repo,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    if (done.status !== 0) throw new Error(`${variant.name} failed: ${done.stderr}`);
    return { stdout: done.stdout, stderr: done.stderr, wall };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

const outputs = new Set<string>();
for (let round = 0; round < RUNS; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    const { stdout, stderr, wall } = run(variant, ['/usr/bin/time', '-f', 'CPUTIME %U %S']);
    const [, user, system] = /CPUTIME ([\d.]+) ([\d.]+)/.exec(stderr) ?? [];
    variant.wall.push(wall);
    variant.cpu.push(Number(user) + Number(system));
    outputs.add(stdout);
  }
}
if (outputs.size !== 1) throw new Error(`the two ${what.name}s printed different JSON`);

const callgrindOut = join(tmpdir(), `sextant-callgrind-${process.pid}.out`);
for (let round = 0; round < CALLGRIND_RUNS; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    const { stderr } = run(variant, ['valgrind', '--tool=callgrind', `--callgrind-out-file=${callgrindOut}`]);
    const collected = /Collected : (\d+)/.exec(stderr)?.[1];
    if (!collected) throw new Error(`no instruction count from callgrind: ${stderr.slice(-500)}`);
    variant.instructions.push(Number(collected));
  }
}
rmSync(callgrindOut, { force: true });

const size = (readFileSync(report).length / 1e6).toFixed(1);
console.log(
  `cold sextant coverage --base --head ${linesOnly.join(' ')} --json, ${size} MB report, ${repo.replace(root, '')}`,
);
console.log(`medians of ${RUNS} runs each, alternating; instructions: ${CALLGRIND_RUNS} callgrind runs each`);
const [wasm, js] = variants as [Variant, Variant];
for (const v of variants) {
  const counts = v.instructions.map((n) => `${(n / 1e9).toFixed(2)} G`).join(', ');
  console.log(
    `${v.name.padEnd(44)} wall ${median(v.wall).toFixed(3)} s  CPU ${median(v.cpu).toFixed(2)} s` +
      (counts ? `  instructions ${counts}` : ''),
  );
}
const change = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)}%`;
console.log(
  `WebAssembly against JavaScript: wall ${change(median(wasm.wall), median(js.wall))}, CPU ${change(median(wasm.cpu), median(js.cpu))}` +
    (CALLGRIND_RUNS > 0 ? `, instructions ${change(median(wasm.instructions), median(js.instructions))}` : ''),
);
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
