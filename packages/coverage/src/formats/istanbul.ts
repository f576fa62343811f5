import { counter, lineCounter } from '../figures/counters.ts';
import {
  type BranchCoverage,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { isObject, JsonCollector } from './json.ts';
import { totals } from './lcov.ts';
import { fail, Interner, languageOf, newLine, type TextParser } from './shared.ts';

type Location = { start: { line: number }; end: { line: number } };

/**
 * Istanbul coverage-final.json (nyc, c8 --reporter=json, jest). Counters: instruction =
 * statements (s), method = functions (f), branch = branch outcomes (b), line = lines derived as
 * istanbul does (a statement's start line; the line's hits are the highest of its statements).
 * Complexity and class are null. Each outcome of `b` is also kept with its identity
 * (`branchId,index`) on its branch's line, so merged runs add per outcome. A branch on a line
 * where no statement starts (`a ||` continued on the next line) makes no coverable line of it:
 * its outcomes count in the file's branches only, as istanbul's LCOV writes them (BRDA, no DA).
 */
export function istanbulParser(): TextParser {
  const collector = new JsonCollector('istanbul');
  return {
    write: (text) => collector.write(text),
    end(): Coverage {
      const data = collector.end();
      if (!isObject(data)) fail('istanbul', 'format-mismatch', 'coverage-final.json is an object keyed by file');
      const names = new Interner();
      const files: FileCoverage[] = [];
      for (const [key, value] of Object.entries(data)) {
        if (!isObject(value)) fail('istanbul', 'bad-record', `entry for ${key} is not an object`, { file: key });
        files.push(toFile(typeof value.path === 'string' ? names.get(value.path) : names.get(key), value));
      }
      return { format: 'istanbul', files, counters: totals(files) };
    },
  };
}

function hitsOf(path: string, map: unknown, what: string): Record<string, unknown> {
  if (map === undefined) return {};
  if (!isObject(map)) fail('istanbul', 'bad-record', `${what} is not an object`, { file: path });
  return map;
}

function nonNegative(path: string, value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(
      'istanbul',
      'bad-number',
      `${what} count ${JSON.stringify(value)?.slice(0, 40)} is not a non-negative integer`,
      { file: path },
    );
  }
  return value;
}

function location(path: string, value: unknown, what: string): Location {
  const loc = value as Location | undefined;
  const start = loc?.start?.line;
  const end = loc?.end?.line;
  if (
    typeof start !== 'number' ||
    !Number.isSafeInteger(start) ||
    start < 0 ||
    (end !== undefined && typeof end !== 'number')
  ) {
    fail('istanbul', 'bad-record', `${what} has no valid location`, { file: path });
  }
  return loc as Location;
}

function toFile(path: string, entry: Record<string, unknown>): FileCoverage {
  const statementMap = hitsOf(path, entry.statementMap, 'statementMap');
  const s = hitsOf(path, entry.s, 's');
  const fnMap = hitsOf(path, entry.fnMap, 'fnMap');
  const f = hitsOf(path, entry.f, 'f');
  const branchMap = hitsOf(path, entry.branchMap, 'branchMap');
  const b = hitsOf(path, entry.b, 'b');

  const byLine = new Map<number, LineCoverage>();
  const branches: BranchCoverage[] = [];
  let statementsCovered = 0;
  let statements = 0;
  for (const [id, loc] of Object.entries(statementMap)) {
    const hits = nonNegative(path, s[id] ?? 0, `statement ${id}`);
    const line = location(path, loc, `statement ${id}`).start.line;
    statements++;
    if (hits > 0) statementsCovered++;
    if (line < 1) continue;
    const existing = byLine.get(line);
    if (existing) existing.hits = Math.max(existing.hits, hits);
    else byLine.set(line, newLine(line, hits));
  }
  for (const [id, raw] of Object.entries(branchMap)) {
    const meta = raw as { loc?: unknown; locations?: unknown[]; line?: number };
    const counts = b[id];
    if (!Array.isArray(counts)) fail('istanbul', 'bad-record', `branch ${id} has no counts`, { file: path });
    const line = meta.loc ? location(path, meta.loc, `branch ${id}`).start.line : (meta.line ?? 0);
    if (line < 1) continue;
    // A statement line's (the statements are all in byLine by now), else only the file's.
    const entry = byLine.get(line);
    for (let index = 0; index < counts.length; index++) {
      const hits = nonNegative(path, counts[index], `branch ${id}`);
      if (entry) {
        entry.branchesTotal++;
        if (hits > 0) entry.branchesCovered++;
      }
      branches.push({ line, id: `${id},${index}`, hits });
    }
  }
  const methods: MethodCoverage[] = Object.entries(fnMap).map(([id, raw]) => {
    const meta = raw as { name?: unknown; decl?: unknown; loc?: unknown; line?: number };
    const hits = nonNegative(path, f[id] ?? 0, `function ${id}`);
    const loc = location(path, meta.loc ?? meta.decl, `function ${id}`);
    const counters = emptyCounters();
    counters.method = counter(hits > 0 ? 1 : 0, hits > 0 ? 0 : 1);
    return {
      name: typeof meta.name === 'string' ? meta.name : `(anonymous_${id})`,
      signature: null,
      startLine: loc.start.line || null,
      endLine: loc.end?.line || null,
      counters,
    };
  });
  const lines = [...byLine.values()].sort((x, y) => x.line - y.line);
  const counters = emptyCounters();
  counters.instruction = counter(statementsCovered, statements - statementsCovered);
  counters.line = lineCounter(lines);
  const branchesHit = branches.filter((outcome) => outcome.hits > 0).length;
  counters.branch = counter(branchesHit, branches.length - branchesHit);
  const hit = methods.filter((m) => m.counters.method?.covered).length;
  counters.method = counter(hit, methods.length - hit);
  return {
    path,
    language: languageOf(path),
    lines,
    classes:
      methods.length > 0 ? [{ name: path, methods, counters: { ...emptyCounters(), method: counters.method } }] : [],
    counters,
    branches: branches.sort((x, y) => x.line - y.line),
  };
}
