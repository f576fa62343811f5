/**
 * The normalised coverage model (DESIGN §3). Every format parses into this shape.
 * A counter a format does not provide is `null` (shown as "—"), never a zero.
 */
export const COUNTER_KINDS = ['instruction', 'branch', 'line', 'complexity', 'method', 'class'] as const;
export type CounterKind = (typeof COUNTER_KINDS)[number];

export type Counter = { covered: number; missed: number };
export type Counters = Record<CounterKind, Counter | null>;

export const FORMATS = ['jacoco', 'lcov', 'cobertura', 'istanbul', 'go', 'coveragepy', 'clover'] as const;
export type FormatName = (typeof FORMATS)[number];

/**
 * Set only by mergeCoverage, on a counter it could not merge exactly because the reports lack
 * the data (JaCoCo XML has per-line sums, not probes): the counter's `covered` is then a lower
 * bound and `coveredAtMost` an upper bound of what the tool would compute from the raw runs.
 * A counter without an entry is exact.
 */
export type CoveredBound = { coveredAtMost: number };
export type CounterBounds = Partial<Record<CounterKind, CoveredBound>>;

/** One branch outcome with its identity in the format (LCOV BRDA `block,branch`), so merges add per branch. */
export type BranchCoverage = { line: number; id: string; hits: number };

/** One source line. `hits` is an execution count where the format has one, else 0/1. */
export type LineCoverage = {
  line: number;
  hits: number;
  branchesCovered: number;
  branchesTotal: number;
  /** JaCoCo only (mi/ci); null elsewhere. */
  instructionsCovered: number | null;
  instructionsMissed: number | null;
  /** After a merge: `instruction` and `branch` bounds of this line where not exact. */
  bounds?: CounterBounds;
};

export type MethodCoverage = {
  /** As the format names it: JaCoCo `<init>`, `lambda$run$0`; LCOV's FN name. */
  name: string;
  /** JVM descriptor such as `(I)V` where the format has one, else null. */
  signature: string | null;
  startLine: number | null;
  endLine: number | null;
  counters: Counters;
  bounds?: CounterBounds;
};

export type ClassCoverage = {
  /** JaCoCo: `pkg/Class$Inner`; Cobertura: the class name attribute. */
  name: string;
  methods: MethodCoverage[];
  counters: Counters;
  bounds?: CounterBounds;
};

export type FileCoverage = {
  /** Repository-relative once mapped; as written in the report before that. `/` separators. */
  path: string;
  language: string | null;
  /** Sorted by line number, one entry per coverable line. */
  lines: LineCoverage[];
  classes: ClassCoverage[];
  counters: Counters;
  /**
   * Every branch with its identity, where the format names branches (LCOV BRDA), including
   * branches on lines that are not coverable lines (lcov counts those in the file's total).
   */
  branches?: BranchCoverage[];
  bounds?: CounterBounds;
};

export type Coverage = {
  format: FormatName;
  files: FileCoverage[];
  /** Report-level totals, equal to the format's own totals where it states them. */
  counters: Counters;
  /** Source roots the report names (Cobertura <sources>), as written; path mapping tries them. */
  sourceRoots?: string[];
  bounds?: CounterBounds;
};

export function emptyCounters(): Counters {
  return { instruction: null, branch: null, line: null, complexity: null, method: null, class: null };
}

export function counterTotal(counter: Counter): number {
  return counter.covered + counter.missed;
}

/** Covered fraction between 0 and 1, or null when the counter is absent or empty. */
export function counterRatio(counter: Counter | null): number | null {
  if (!counter) return null;
  const total = counterTotal(counter);
  return total === 0 ? null : counter.covered / total;
}
