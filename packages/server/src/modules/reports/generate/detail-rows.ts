import {
  type Bounded,
  COUNTER_KINDS,
  type CounterBounds,
  type Counters,
  type Coverage,
  type FileCoverage,
  type FormatName,
  type MethodCoverage,
} from '@sextant/coverage';
import type { Column, ColumnData } from './bulk-insert.ts';
import { type MethodChange, type MethodChanges, mostFrequentAuthor } from './method-changes.ts';

/**
 * The counter columns, covered, total and covered-at-most per counter, in COUNTER_KINDS order;
 * covered-at-most is null for an exact counter (issue 38: a merge's range otherwise).
 */
export const COUNTER_COLUMNS: readonly Column[] = COUNTER_KINDS.flatMap((kind) => [
  { name: `${kind}_covered`, type: 'int8' as const },
  { name: `${kind}_total`, type: 'int8' as const },
  { name: `${kind}_covered_at_most`, type: 'int8' as const },
]);

/** The values of COUNTER_COLUMNS (null where the format lacks the counter, or for an exact upper bound). */
export function counterValues(bounded: Bounded): (number | null)[] {
  const values: (number | null)[][] = COUNTER_COLUMNS.map(() => []);
  pushCounterValues(values, 0, bounded);
  return values.map((column) => column[0] ?? null);
}

/** Appends the values of COUNTER_COLUMNS to `columns` from index `at` on; the index after them. */
function pushCounterValues(columns: unknown[][], at: number, { counters, bounds }: Bounded): number {
  let i = at;
  for (const kind of COUNTER_KINDS) {
    const c = counters[kind];
    const most = c ? bounds?.[kind]?.coveredAtMost : undefined;
    columns[i++]?.push(c ? c.covered : null);
    columns[i++]?.push(c ? c.covered + c.missed : null);
    columns[i++]?.push(c && most !== undefined && most > c.covered ? most : null);
  }
  return i;
}

/**
 * Formats whose parser has no classes, or one class per file named by the report's (unmapped) path:
 * their class row is the file itself, named by its repository path, holding all its functions.
 */
const FILE_AS_CLASS: ReadonlySet<FormatName> = new Set(['lcov', 'istanbul', 'go', 'coveragepy']);

/** A class row to write: a class of the report, or a file standing for one. */
export type ClassEntry = {
  file: FileCoverage;
  name: string;
  counters: Counters;
  bounds?: CounterBounds;
  methods: readonly MethodCoverage[];
};

/** Class rows in report order; a file without classes still gets one, so its figures show. */
export function classEntries(coverage: Coverage): ClassEntry[] {
  const entries: ClassEntry[] = [];
  for (const file of coverage.files) {
    if (FILE_AS_CLASS.has(coverage.format) || file.classes.length === 0) {
      const methods =
        file.classes.length === 1 ? (file.classes[0]?.methods ?? []) : file.classes.flatMap((c) => c.methods);
      entries.push({ file, name: file.path, counters: file.counters, bounds: file.bounds, methods });
    } else {
      for (const cls of file.classes)
        entries.push({ file, name: cls.name, counters: cls.counters, bounds: cls.bounds, methods: cls.methods });
    }
  }
  return entries;
}

const DETAIL_COLUMNS: readonly Column[] = [
  { name: 'id', type: 'int8' },
  { name: 'class_id', type: 'int8' },
  { name: 'kind', type: 'text' },
  { name: 'name', type: 'text' },
  { name: 'file_path', type: 'text' },
  { name: 'start_line', type: 'int4' },
  { name: 'end_line', type: 'int4' },
  { name: 'changed', type: 'bool' },
  { name: 'change_status', type: 'text' },
  { name: 'method_count', type: 'int4' },
  ...COUNTER_COLUMNS,
  { name: 'code_author', type: 'text' },
  { name: 'carried_from', type: 'text' },
];

/** The older commit whose carried coverage covers a method the fresh runs left uncovered (issue 38). */
export type CarriedFrom = (path: string, method: MethodCoverage) => string | null;
const NOTHING_CARRIED: CarriedFrom = () => null;

export type DetailRows = { classes: ColumnData; methods: ColumnData };

/**
 * Class rows (class_id null) with the ids taken for them, and method rows pointing at their class
 * row; a method row's name is `name + signature` (`run(I)V`), its change and author those of the
 * changed method it belongs to. Method rows keep the database's own id.
 */
export function detailRows(
  entries: readonly ClassEntry[],
  classIds: readonly number[],
  changes: MethodChanges,
  carriedFrom: CarriedFrom = NOTHING_CARRIED,
) {
  const classes = emptyColumns(DETAIL_COLUMNS);
  const methodColumns = DETAIL_COLUMNS.slice(1);
  const methods = emptyColumns(methodColumns);
  for (const [index, entry] of entries.entries()) {
    const classId = classIds[index] as number;
    const path = entry.file.path;
    const touched = changes.touches(path);
    let start: number | null = null;
    let end: number | null = null;
    const changedOnes: MethodChange[] = [];
    for (const method of entry.methods) {
      const change = touched ? changes.changeOf(path, entry.name, method) : null;
      if (change) changedOnes.push(change);
      if (method.startLine !== null && (start === null || method.startLine < start)) start = method.startLine;
      const last = method.endLine ?? method.startLine;
      if (last !== null && (end === null || last > end)) end = last;
      // Column by column, without a row array or counter array per method (issue 41: the garbage of
      // 100,000 rows grew the heap of a large report's write by hundreds of MB).
      const v = methods.values;
      v[0]?.push(classId);
      v[1]?.push('method');
      v[2]?.push(method.signature ? method.name + method.signature : method.name);
      v[3]?.push(path);
      v[4]?.push(method.startLine);
      v[5]?.push(method.endLine);
      v[6]?.push(change !== null);
      v[7]?.push(change?.status ?? null);
      v[8]?.push(0);
      const next = pushCounterValues(v, 9, method);
      v[next]?.push(change?.author ?? null);
      v[next + 1]?.push(carriedFrom(path, method));
      methods.rowCount++;
    }
    const changed = changedOnes.length > 0;
    const status = !changed ? null : changedOnes.every((c) => c.status === 'added') ? 'added' : 'modified';
    pushRow(classes, [
      classId,
      null,
      'class',
      entry.name,
      path,
      start,
      end,
      changed,
      status,
      entry.methods.length,
      ...counterValues(entry),
      mostFrequentAuthor(changedOnes.map((c) => c.author)),
      null,
    ]);
  }
  return { classes, methods } satisfies DetailRows;
}

export function emptyColumns(columns: readonly Column[]): ColumnData {
  return { columns, values: columns.map(() => []), rowCount: 0 };
}

export function pushRow(data: ColumnData, row: readonly unknown[]): void {
  for (let i = 0; i < row.length; i++) (data.values[i] as unknown[]).push(row[i]);
  data.rowCount++;
}
