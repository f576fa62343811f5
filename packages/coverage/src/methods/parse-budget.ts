import type { Parser, Tree } from 'web-tree-sitter';

/**
 * tree-sitter's error recovery can take time that grows much faster than the source on some broken
 * input (32–36 KB of Java with long runs of `(` or `[` took 6–7 s; a run of 12,000 `[` 1.5 s, of
 * 26,000 5.9 s). A parse stops when it outlasts its budget, and the file's methods are then unknown
 * rather than the whole run stalled. Well-formed source parses at least 30 times faster than the
 * budget allows (0.7 MB of Java in about 0.2 s, against 9 s).
 */
export class ParseBudgetExceeded extends Error {
  constructor(readonly seconds: number) {
    super(`tree-sitter gave up after ${seconds.toFixed(1)} s (source it cannot recover from in time)`);
    this.name = 'ParseBudgetExceeded';
  }
}

/** SEXTANT_PARSE_BUDGET_MS sets the fixed part (worker threads read it too); default 2 s. */
const fromEnvironment = Number(
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SEXTANT_PARSE_BUDGET_MS,
);
let baseMs = Number.isFinite(fromEnvironment) && fromEnvironment >= 0 ? fromEnvironment : 2000;
const MS_PER_KIB = 10;

/** Sets the fixed part of every parse's budget (tests shorten it); returns the one it replaces. */
export function setParseBudgetBase(ms: number): number {
  const before = baseMs;
  baseMs = ms;
  return before;
}

/** The tree of `source` (updating `old`, as `Parser.parse` does), or ParseBudgetExceeded. */
export function parseWithinBudget(parser: Parser, source: string, old: Tree | null = null): Tree {
  const started = Date.now();
  const deadline = started + baseMs + (source.length / 1024) * MS_PER_KIB;
  // Typed as void, but a true answer cancels the parse (web-tree-sitter 0.25).
  const progressCallback = (() => Date.now() > deadline) as () => void;
  const tree = parser.parse(source, old, { progressCallback });
  if (!tree) throw new ParseBudgetExceeded((Date.now() - started) / 1000);
  return tree;
}
