import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Issue 38, carry-forward: a repository of three commits. Commit 1 has price, discount and tax;
 * commit 2 adds hello above them (every line moves down four) and changes price; commit 3 changes
 * discount. A run on commit 1 covered price and discount, a run on commit 2 covered price, the run
 * on commit 3 covered tax only.
 */
const C1 = `function price(a) {
  const base = a * 2;
  return base + 1;
}

function discount(a) {
  const cut = a / 2;
  return a - cut;
}

function tax(a) {
  return a * 0.2;
}

module.exports = { price, discount, tax };
`;
const C2 = `function hello() {
  return 'hi';
}

${C1.replace('a * 2', 'a * 3').replace('{ price,', '{ hello, price,')}`;
const C3 = C2.replace('a / 2', 'a / 4');

/** An LCOV record of src/shop.js: line -> hits, function -> [first line, hits]. */
function lcov(lines: Record<number, number>, functions: Record<string, [number, number]>): string {
  const out = ['TN:', 'SF:src/shop.js'];
  for (const [name, [line]] of Object.entries(functions)) out.push(`FN:${line},${name}`);
  for (const [name, [, hits]] of Object.entries(functions)) out.push(`FNDA:${hits},${name}`);
  const fns = Object.values(functions);
  out.push(`FNF:${fns.length}`, `FNH:${fns.filter(([, hits]) => hits > 0).length}`);
  for (const [line, hits] of Object.entries(lines)) out.push(`DA:${line},${hits}`);
  const hit = Object.values(lines).filter((hits) => hits > 0).length;
  out.push(`LF:${Object.keys(lines).length}`, `LH:${hit}`, 'end_of_record', '');
  return out.join('\n');
}

// Line numbers of commits 2 and 3: hello 1-3, price 5-8, discount 10-13, tax 15-17, exports 19.
const LATER_FUNCTIONS = (hits: [number, number, number, number]) => ({
  hello: [1, hits[0]] as [number, number],
  price: [5, hits[1]] as [number, number],
  discount: [10, hits[2]] as [number, number],
  tax: [15, hits[3]] as [number, number],
});
export const RUN_1 = lcov(
  { 1: 1, 2: 1, 3: 1, 6: 2, 7: 2, 8: 2, 11: 0, 12: 0, 15: 1 },
  { price: [1, 1], discount: [6, 2], tax: [11, 0] },
);
export const RUN_2 = lcov(
  { 1: 0, 2: 0, 5: 3, 6: 3, 7: 3, 10: 0, 11: 0, 12: 0, 15: 0, 16: 0, 19: 1 },
  LATER_FUNCTIONS([0, 3, 0, 0]),
);
export const RUN_3 = lcov(
  { 1: 0, 2: 0, 5: 0, 6: 0, 7: 0, 10: 0, 11: 0, 12: 0, 15: 4, 16: 4, 19: 1 },
  LATER_FUNCTIONS([0, 0, 0, 4]),
);

/** Writes the three commits into `repo` (tags c1, c2, c3) and gives their shas. */
export function writeCarryRepository(repo: string): string[] {
  mkdirSync(join(repo, 'src'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.test', ...args], {
      encoding: 'utf8',
    }).trim();
  git('init', '--quiet', '--initial-branch=main');
  const commits: string[] = [];
  for (const [i, text] of [C1, C2, C3].entries()) {
    writeFileSync(join(repo, 'src/shop.js'), text);
    git('add', '.');
    git('commit', '--quiet', '-m', `build ${i + 1}`);
    git('tag', `c${i + 1}`);
    commits.push(git('rev-parse', 'HEAD'));
  }
  return commits;
}
