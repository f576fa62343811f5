// A large synthetic Java project for bench/report-pipeline.ts: a git repository of two commits
// (tags base and head) and two JaCoCo XML runs describing head, as two test runs would send them.
// Run: npx tsx bench/gen/java-two-commits.ts   (FILES=10000 → 20,000 classes; CHANGED=0.02 of files)
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const FILES = Number(process.env.FILES ?? 10_000);
const CHANGED = Number(process.env.CHANGED ?? 0.02);
const PACKAGES = Math.max(1, Math.round(FILES / 100));
const TOP_METHODS = 8;
const INNER_METHODS = 4;
const out = new URL('../out/report-pipeline/', import.meta.url).pathname;
const repo = join(out, 'repo');

/** A deterministic pseudo-random value in [0, 1) per (file, method, run). */
function chance(...keys: number[]): number {
  let h = 0x9e3779b9;
  for (const k of keys) {
    h = Math.imul(h ^ k, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) / 4294967296;
}

/** 0 never ran, 1 ran without taking the if, 2 ran both ways. */
const stateOf = (file: number, method: number, run: number) => {
  const r = chance(file, method, run);
  return r < 0.3 ? 0 : r < 0.6 ? 1 : 2;
};

type Method = { name: string; id: number; constant: number; line: number };
type Layout = { source: string; classes: { name: string; methods: Method[] }[] };

const changedFile = (file: number) => chance(file, 999_999) < CHANGED;

/** The Java source of a file and where each method's first code line is. */
function layout(file: number, head: boolean): Layout {
  const pkg = `p${file % PACKAGES}`;
  const lines = [`package ${pkg};`, '', `public class C${file} {`, '    private int state;', ''];
  const classes: Layout['classes'] = [];
  const body = (indent: string, name: string, id: number, constant: number, methods: Method[]) => {
    lines.push(`${indent}public int ${name}(int x) {`);
    methods.push({ name, id, constant, line: lines.length + 1 });
    lines.push(`${indent}    int y = x + ${constant};`, `${indent}    if (y > 10) {`, `${indent}        state += y;`);
    lines.push(`${indent}    }`, `${indent}    return y;`, `${indent}}`, '');
  };
  const changed = head && changedFile(file);
  const top: Method[] = [];
  for (let m = 0; m < TOP_METHODS; m++) body('    ', `m${m}`, m, changed && m === 1 ? 1000 + m : m, top);
  if (changed) body('    ', `m${TOP_METHODS}`, TOP_METHODS, 7, top);
  classes.push({ name: `${pkg}/C${file}`, methods: top });
  lines.push('    public static class Inner {', '        private int state;', '');
  const inner: Method[] = [];
  for (let m = 0; m < INNER_METHODS; m++) body('        ', `n${m}`, 100 + m, changed && m === 0 ? 2000 : m, inner);
  lines.push('    }', '}', '');
  classes.push({ name: `${pkg}/C${file}$Inner`, methods: inner });
  return { source: lines.join('\n'), classes };
}

const pathOf = (file: number) => `src/main/java/p${file % PACKAGES}/C${file}.java`;

type Sums = number[]; // instruction, branch, line, complexity, method, class: [missed, covered] each
const KINDS = ['INSTRUCTION', 'BRANCH', 'LINE', 'COMPLEXITY', 'METHOD', 'CLASS'];
const zero = (): Sums => new Array(12).fill(0);
const addInto = (a: Sums, b: Sums) => {
  for (let i = 0; i < 12; i++) (a[i] as number) += b[i] as number;
};
const counters = (s: Sums, withClass: boolean) =>
  KINDS.slice(0, withClass ? 6 : 5)
    .map((k, i) => `<counter type="${k}" missed="${s[i * 2]}" covered="${s[i * 2 + 1]}"/>`)
    .join('');

/** Per line of a method: instructions and branches; the `if` line holds the two branches. */
const LINE_SHAPE = [
  { offset: 0, instructions: 4, branches: 0 },
  { offset: 1, instructions: 3, branches: 2 },
  { offset: 2, instructions: 5, branches: 0 },
  { offset: 4, instructions: 2, branches: 0 },
];

function writeRun(run: number, target: string): void {
  const fd = openSync(target, 'w');
  writeSync(fd, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><report name="bench">');
  const report = zero();
  for (let p = 0; p < PACKAGES; p++) {
    const classXml: string[] = [];
    const sourceXml: string[] = [];
    const pkg = zero();
    for (let file = p; file < FILES; file += PACKAGES) {
      const { classes } = layout(file, true);
      const fileSums = zero();
      const lineXml: string[] = [];
      for (const cls of classes) {
        const clsSums = zero();
        const methodXml: string[] = [];
        for (const m of cls.methods) {
          const state = stateOf(file, m.id, run);
          const s = zero();
          for (const shape of LINE_SHAPE) {
            const ran = state > 0 && (shape.offset !== 2 || state === 2);
            const cb = shape.branches === 0 ? 0 : state === 0 ? 0 : state === 1 ? 1 : 2;
            const ci = ran ? shape.instructions : 0;
            const mi = shape.instructions - ci;
            lineXml.push(
              `<line nr="${m.line + shape.offset}" mi="${mi}" ci="${ci}" mb="${shape.branches - cb}" cb="${cb}"/>`,
            );
            s[0] = (s[0] as number) + mi;
            s[1] = (s[1] as number) + ci;
            s[2] = (s[2] as number) + shape.branches - cb;
            s[3] = (s[3] as number) + cb;
            s[ran ? 5 : 4] = (s[ran ? 5 : 4] as number) + 1;
          }
          s[6] = state === 2 ? 0 : state === 1 ? 1 : 2;
          s[7] = 2 - (s[6] as number);
          s[state > 0 ? 9 : 8] = 1;
          methodXml.push(`<method name="${m.name}" desc="(I)I" line="${m.line}">${counters(s, false)}</method>`);
          addInto(clsSums, s);
        }
        clsSums[(clsSums[9] as number) > 0 ? 11 : 10] = 1;
        classXml.push(
          `<class name="${cls.name}" sourcefilename="C${file}.java">${methodXml.join('')}${counters(clsSums, true)}</class>`,
        );
        addInto(fileSums, clsSums);
      }
      const sorted = lineXml.sort((a, b) => Number(/nr="(\d+)"/.exec(a)?.[1]) - Number(/nr="(\d+)"/.exec(b)?.[1]));
      sourceXml.push(`<sourcefile name="C${file}.java">${sorted.join('')}${counters(fileSums, true)}</sourcefile>`);
      addInto(pkg, fileSums);
    }
    writeSync(fd, `<package name="p${p}">${classXml.join('')}${sourceXml.join('')}${counters(pkg, true)}</package>`);
    addInto(report, pkg);
  }
  writeSync(fd, `${counters(report, true)}</report>`);
  closeSync(fd);
}

function git(args: string[], author: string): void {
  const [name, email] = author.split(':') as [string, string];
  execFileSync('git', ['-c', `user.name=${name}`, '-c', `user.email=${email}`, ...args], {
    cwd: repo,
    stdio: 'ignore',
    env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' },
  });
}

function writeSources(head: boolean): void {
  for (let file = 0; file < FILES; file++) {
    if (head && !changedFile(file)) continue;
    const path = join(repo, pathOf(file));
    if (!head) mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, layout(file, head).source);
  }
}

rmSync(out, { recursive: true, force: true });
mkdirSync(repo, { recursive: true });
execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
writeSources(false);
git(['add', '-A'], 'Base Author:base@example.test');
git(['commit', '-q', '-m', 'base'], 'Base Author:base@example.test');
git(['tag', 'base'], 'Base Author:base@example.test');
writeSources(true);
git(['commit', '-q', '-a', '-m', 'REQ-42 change the bench methods'], 'Head Author:head@example.test');
git(['tag', 'head'], 'Head Author:head@example.test');
writeRun(1, join(out, 'run-1.xml'));
writeRun(2, join(out, 'run-2.xml'));
const changed = Array.from({ length: FILES }, (_, f) => f).filter(changedFile).length;
console.log(`${FILES} files, ${FILES * 2} classes, ${changed} changed files → ${out}`);
