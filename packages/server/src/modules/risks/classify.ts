import { type Coverage, counterRatio, type DiffCoverage } from '@sextant/coverage';

/** A changed method the report shows uncovered or below the passing grade (DESIGN §6). */
export type RiskCandidate = {
  key: string;
  className: string;
  methodName: string;
  signature: string | null;
  filePath: string;
  startLine: number;
  endLine: number;
  author: string | null;
  lineCovered: number;
  lineTotal: number;
  changedLines: number;
  bodyHash: string | null;
};

/** A method is the same risk item in every report of a version by file, name and signature (not lines). */
export const riskKey = (filePath: string, name: string, signature: string | null) =>
  `${filePath}\u0000${name}\u0000${signature ?? ''}`;

const classKey = (file: string, cls: string | null, name: string) => `${file}\u0000${cls ?? ''}\u0000${name}`;

/**
 * Changed methods at risk, and the keys of changed methods this report shows at or above the passing
 * grade. A changed method the report has no data for (an abstract method) is no risk; one without
 * coverable lines is at risk when it did not run. The engine lists a field initialiser as a piece of
 * each constructor that runs it (same name and signature, the field's lines): pieces are one item, and
 * a signature-less `<init>` piece beside a known constructor is not a second one (issue 34).
 */
export function classifyChangedMethods(diff: DiffCoverage, passingGrade: number) {
  const atRisk = new Map<string, RiskCandidate>();
  const good = new Set<string>();
  const signed = new Set<string>();
  for (const method of diff.incremental.methods) {
    if (method.signature !== null) signed.add(classKey(method.file, method.class, method.name));
  }
  for (const [index, method] of diff.incremental.methods.entries()) {
    if (!method.measured) continue;
    if (method.signature === null && signed.has(classKey(method.file, method.class, method.name))) continue;
    const key = riskKey(method.file, method.name, method.signature);
    const line = method.counters.line;
    const ratio = counterRatio(line);
    if (ratio === null ? method.covered : ratio >= passingGrade) {
      good.add(key);
      continue;
    }
    const known = atRisk.get(key);
    if (known) {
      known.changedLines += method.changedLines.length;
      known.startLine = Math.min(known.startLine, method.startLine);
      known.endLine = Math.max(known.endLine, method.endLine);
      continue;
    }
    atRisk.set(key, {
      key,
      className: method.class ?? method.file,
      methodName: method.name,
      signature: method.signature,
      filePath: method.file,
      startLine: method.startLine,
      endLine: method.endLine,
      author: diff.authors[index] ?? null,
      lineCovered: line?.covered ?? 0,
      lineTotal: line ? line.covered + line.missed : 0,
      changedLines: method.changedLines.length,
      bodyHash: method.bodyHash || null,
    });
  }
  for (const key of atRisk.keys()) good.delete(key);
  return { atRisk, good };
}

/** Keys of the report's own methods whose line coverage is at or above the grade (all overloads must be). */
export function reportMethodsAtGrade(coverage: Coverage, passingGrade: number, wanted: ReadonlySet<string>) {
  const verdict = new Map<string, boolean>();
  const files = new Set([...wanted].map((key) => key.slice(0, key.indexOf('\u0000'))));
  for (const file of coverage.files) {
    if (!files.has(file.path)) continue;
    for (const cls of file.classes) {
      for (const method of cls.methods) {
        const key = riskKey(file.path, method.name, method.signature);
        if (!wanted.has(key)) continue;
        const ratio = counterRatio(method.counters.line);
        const ok = ratio !== null && ratio >= passingGrade;
        verdict.set(key, (verdict.get(key) ?? true) && ok);
      }
    }
  }
  return new Set([...verdict].filter(([, ok]) => ok).map(([key]) => key));
}
