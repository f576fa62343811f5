// `diff` (packages/coverage/src/node/git.ts) on the ECharts bench repositories, asking git for one
// patch of each set of identical changes where copies abound (diff-copies.ts), against one whole
// `git diff` parsed the same way: wall milliseconds of each (medians of RUNS, default 9, the two
// alternating) and the CPU milliseconds git's processes took (from /proc: children reaped). The
// answers must be equal. repo-7 holds seven identical copies of the tree; repo-7-distinct the same
// copies, each .js file ending with a comment of its own (but .ts sources and other files copied).
// Run: npx tsx bench/diff-copies.ts   (inputs: bash bench/gen/cobertura-echarts.sh)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseUnifiedDiff } from '../packages/coverage/src/diff/unified.ts';
import { diff, diffStats, runGit, withScratchFile } from '../packages/coverage/src/node/git.ts';

const RUNS = Number(process.env.RUNS ?? 9);
const out = new URL('out/cobertura/', import.meta.url).pathname;

/** CPU milliseconds of this process's reaped children (utime + stime of /proc/self/stat). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command's closing parenthesis, cutime and cstime are the 14th and 15th fields.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

async function whole(repo: string) {
  return withScratchFile('diff', async (output) => {
    const options = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', '--unified=0', '--full-index'];
    await runGit(repo, ['diff', ...options, `--output=${output}`, 'base^{commit}', 'head^{commit}']);
    return parseUnifiedDiff(readFileSync(output));
  });
}

async function measure(run: () => Promise<unknown>) {
  const cpu = childrenCpuMs();
  const started = performance.now();
  const answer = await run();
  return { answer, ms: performance.now() - started, gitCpuMs: childrenCpuMs() - cpu };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

console.log('repository         files  asked   whole git diff: wall / git CPU   with copies: wall / git CPU');
for (const name of ['repo-1', 'repo-7', 'repo-7-distinct']) {
  const repo = join(out, name);
  const runs = {
    whole: { ms: [] as number[], cpu: [] as number[] },
    copies: { ms: [] as number[], cpu: [] as number[] },
  };
  for (let round = 0; round < RUNS; round++) {
    const a = await measure(() => whole(repo));
    const b = await measure(() => diff(repo, 'base', 'head'));
    if (!isDeepStrictEqual(a.answer, b.answer)) throw new Error(`${name}: the two answers differ`);
    runs.whole.ms.push(a.ms);
    runs.whole.cpu.push(a.gitCpuMs);
    runs.copies.ms.push(b.ms);
    runs.copies.cpu.push(b.gitCpuMs);
  }
  const cell = (r: { ms: number[]; cpu: number[] }) =>
    `${median(r.ms).toFixed(0).padStart(5)} ms / ${median(r.cpu).toFixed(0).padStart(4)} ms`;
  console.log(
    `${name.padEnd(18)} ${String(diffStats.files).padStart(5)} ${String(diffStats.patched).padStart(6)}   ${cell(runs.whole).padStart(31)}   ${cell(runs.copies).padStart(27)}`,
  );
}
