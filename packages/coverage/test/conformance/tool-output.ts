import { readFileSync } from 'node:fs';

/** Reads the saved outputs of the real coverage tools (packages/coverage/fixtures/<tool>/). */
export const fixtureDir = new URL('../../fixtures/', import.meta.url).pathname;

export function fixturePath(relative: string): string {
  return `${fixtureDir}${relative}`;
}

export function readFixture(relative: string): string {
  return readFileSync(fixturePath(relative), 'utf8');
}

export function readFixtureJson<T>(relative: string): T {
  return JSON.parse(readFixture(relative)) as T;
}

/** A covered/total pair as the tools print it ("36 of 49", "( 52/60 )"). */
export type Figure = { covered: number; total: number };

/** `lcov --summary`: `lines......: 73.5% (36 of 49 lines)`; null for "no data found". */
export function parseLcovSummary(text: string): Record<'lines' | 'functions' | 'branches', Figure | null> {
  const figure = (kind: string): Figure | null => {
    const row = new RegExp(`^\\s*${kind}\\.+: (.*)$`, 'm').exec(text);
    if (!row) throw new Error(`lcov --summary has no ${kind} row`);
    const counts = /\((\d+) of (\d+) /.exec(row[1]!);
    if (!counts) {
      if (row[1]!.startsWith('no data found')) return null;
      throw new Error(`unreadable lcov --summary row: ${row[0]}`);
    }
    return { covered: Number(counts[1]), total: Number(counts[2]) };
  };
  return { lines: figure('lines'), functions: figure('functions'), branches: figure('branches') };
}

/** c8/istanbul `text-summary`: `Statements   : 86.66% ( 52/60 )`. */
export function parseIstanbulTextSummary(
  text: string,
): Record<'statements' | 'branches' | 'functions' | 'lines', Figure> {
  const figure = (kind: string): Figure => {
    const row = new RegExp(`^${kind}\\s*: .*\\( (\\d+)/(\\d+) \\)$`, 'm').exec(text);
    if (!row) throw new Error(`text-summary has no ${kind} row`);
    return { covered: Number(row[1]), total: Number(row[2]) };
  };
  return {
    statements: figure('Statements'),
    branches: figure('Branches'),
    functions: figure('Functions'),
    lines: figure('Lines'),
  };
}

/** `go tool cover -func`: the percentage on the `total:` line, as printed (`81.0`). */
export function parseGoFuncTotal(text: string): string {
  const total = /^total:\s+\(statements\)\s+(\d+\.\d)%$/m.exec(text);
  if (!total) throw new Error('go tool cover -func output has no total line');
  return total[1]!;
}

/** `go tool cover -html` file picker: `<option value="file0">pkg/file.go (80.0%)</option>` → path → `80.0`. */
export function parseGoHtmlFiles(text: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const match of text.matchAll(/<option value="file\d+">(.+) \((\d+\.\d)%\)<\/option>/g)) {
    files[match[1]!] = match[2]!;
  }
  return files;
}

/** `coverage report`: per-file Stmts/Miss/Branch/BrPart rows and the TOTAL row. */
export type CoverageReportRow = { name: string; statements: number; missed: number; branches: number };

export function parseCoverageReport(text: string): CoverageReportRow[] {
  const rows: CoverageReportRow[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%/.exec(line);
    if (match) {
      rows.push({
        name: match[1]!,
        statements: Number(match[2]),
        missed: Number(match[3]),
        branches: Number(match[4]),
      });
    }
  }
  return rows;
}

/** One numeric attribute of the first element named `element` (root attributes of a report). */
export function xmlAttribute(xml: string, element: string, attribute: string): number {
  const tag = new RegExp(`<${element}\\s[^>]*>`).exec(xml);
  const value = tag && new RegExp(`\\s${attribute}="([^"]*)"`).exec(tag[0]);
  if (!value) throw new Error(`no ${attribute} on <${element}>`);
  return Number(value[1]);
}
