import type { FileCoverage, LineCoverage, MethodCoverage } from '../model/coverage.ts';
import type { ClassDraft, MethodDraft } from './groups.ts';
import type { LineDraft } from './lines.ts';

/**
 * JaCoCo's XML does not say which lines a method has, only its first line and its counters. A
 * method's lines are taken to be the LINE-total coverable lines from its first line on, and only
 * when that is consistent: no other method of the file starts among them (a lambda, an anonymous
 * or local class, or a second method on the same line would share or interleave lines), and in
 * every run the sums of those lines' `mi ci mb cb` and covered lines equal the method's own
 * INSTRUCTION, BRANCH and LINE counters. Methods failing either test keep only their counters.
 */
export function attributeMethodLines(
  files: readonly FileCoverage[],
  lines: readonly LineDraft[],
  classes: readonly ClassDraft[],
): Map<MethodDraft, LineDraft[]> {
  const attributed = new Map<MethodDraft, LineDraft[]>();
  const runLines = files.map((f) => new Map(f.lines.map((l) => [l.line, l])));
  if (runLines.some((byLine) => byLine.size !== lines.length)) return attributed;
  const methods = classes.flatMap((c) => c.methods);
  const starts = methods.map((m) => m.runs[0]?.startLine ?? null);
  methods.forEach((method, index) => {
    const start = starts[index];
    const total = lineTotal(method.runs[0]);
    if (start === null || start === undefined || total === 0 || method.runs.length !== files.length) return;
    const from = lines.findIndex((l) => l.line >= start);
    const own = from === -1 ? [] : lines.slice(from, from + total);
    const last = own.at(-1)?.line;
    if (own.length !== total || own[0]?.line !== start || last === undefined) return;
    const interleaved = starts.some((s, other) => other !== index && s !== null && s >= start && s <= last);
    if (interleaved) return;
    const consistent = method.runs.every((run, i) => sumsMatch(run, own, runLines[i] as Map<number, LineCoverage>));
    if (consistent) attributed.set(method, own);
  });
  return attributed;
}

function lineTotal(method: MethodCoverage | undefined): number {
  const line = method?.counters.line;
  return line ? line.covered + line.missed : 0;
}

function sumsMatch(method: MethodCoverage, own: readonly LineDraft[], byLine: Map<number, LineCoverage>): boolean {
  const { instruction, branch, line } = method.counters;
  if (!instruction || !branch || !line || method.bounds) return false;
  let ci = 0;
  let mi = 0;
  let cb = 0;
  let mb = 0;
  let covered = 0;
  for (const { line: nr } of own) {
    const l = byLine.get(nr);
    if (!l || l.bounds || l.instructionsCovered === null || l.instructionsMissed === null) return false;
    ci += l.instructionsCovered;
    mi += l.instructionsMissed;
    cb += l.branchesCovered;
    mb += l.branchesTotal - l.branchesCovered;
    if (l.instructionsCovered > 0) covered++;
  }
  return (
    ci === instruction.covered &&
    mi === instruction.missed &&
    cb === branch.covered &&
    mb === branch.missed &&
    covered === line.covered
  );
}
