// Parse throughput and peak RSS on an LCOV tracefile of 100+ MB written by c8 (bench/gen/lcov.sh), against
// Debian's lcov 1.16 on the same file: `lcov --summary` (reads it and totals it) and `genhtml` (the report).
// Run: npx tsx bench/parse-lcov.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { best, input, node, program, table } from './parse-run.ts';

const { path, mb } = input(new URL('./out/lcov/lcov.info', import.meta.url).pathname, 'bench/gen/lcov.sh');
const branches = ['--rc', 'lcov_branch_coverage=1'];

console.log(`LCOV: ${mb.toFixed(1)} MB`);
const ours = await best(() => node('ours', path));
const summary = await best(() => program('lcov', ['--summary', path, ...branches]));
const html = mkdtempSync(join(tmpdir(), 'genhtml-'));
// genhtml takes minutes on this size: one run.
const genhtml = await best(() => program('genhtml', ['-q', '--no-source', ...branches, '-o', html, path]), 1);
rmSync(html, { recursive: true, force: true });
table(mb, [
  ['@sextant/coverage readCoverageFile (model)', ours],
  ['lcov 1.16 --summary', summary],
  ['genhtml 1.16 --no-source', genhtml],
]);

// Our totals against lcov's own summary of the same file.
const printed = `${summary.detail?.stdout ?? ''}${summary.detail?.stderr ?? ''}`;
const lcovTotal = (label: string) => {
  const match = new RegExp(`${label}\\.*: [\\d.]+% \\((\\d+) of (\\d+)`).exec(printed);
  return match ? { covered: Number(match[1]), total: Number(match[2]) } : null;
};
const counters = ours.detail?.counters as Record<string, { covered: number; missed: number }>;
const mine = (kind: string) => {
  const c = counters[kind];
  return c ? { covered: c.covered, total: c.covered + c.missed } : null;
};
for (const [label, kind] of [
  ['lines', 'line'],
  ['functions', 'method'],
  ['branches', 'branch'],
] as const) {
  console.log(`${label}: lcov ${JSON.stringify(lcovTotal(label))}, ours ${JSON.stringify(mine(kind))}`);
}
