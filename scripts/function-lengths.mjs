#!/usr/bin/env node
// Function lengths (in lines) over a source folder, read with the TypeScript compiler API: each
// function, method, arrow function and function expression counts from its first line to its last
// (nested functions count inside their parent and on their own). Prints the count, p50, p90, the
// longest functions and the files over the line limit.
// Usage: node scripts/function-lengths.mjs [folder=packages/server/src] [--top N] [--over LINES]
//        [--only a,b,c]  (path fragments: only files whose path holds one of them)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const folder = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'packages/server/src';
const top = Number(option('--top', '10'));
const over = Number(option('--over', '300'));
const only = option('--only', '')?.split(',').filter(Boolean) ?? [];

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    const isSource = /\.(ts|tsx|mts)$/.test(entry.name) && !/\.d\.ts$/.test(entry.name);
    return isSource && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

const functions = [];
const longFiles = [];
for (const file of sourceFiles(folder)) {
  const path = relative(process.cwd(), file);
  if (only.length > 0 && !only.some((part) => path.includes(part))) continue;
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > over) longFiles.push({ path, lines });
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ path, name: nameOf(node), line: first + 1, length: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

const sorted = functions.map((f) => f.length).sort((a, b) => a - b);
const percentile = (p) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
console.log(
  `${functions.length} functions, p50 ${percentile(50)} lines, p90 ${percentile(90)} lines, max ${sorted.at(-1) ?? 0}`,
);
console.log(`files over ${over} lines: ${longFiles.length}`);
for (const f of longFiles.sort((a, b) => b.lines - a.lines)) console.log(`  ${f.lines}  ${f.path}`);
console.log(`longest ${top} functions:`);
for (const f of functions.sort((a, b) => b.length - a.length).slice(0, top)) {
  console.log(`  ${f.length}  ${f.name}  ${f.path}:${f.line}`);
}
