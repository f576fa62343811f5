import { branchCounter, counter, lineCounter } from '../figures/counters.ts';
import {
  type ClassCoverage,
  type Counter,
  type Counters,
  type Coverage,
  emptyCounters,
  type FileCoverage,
  type LineCoverage,
  type MethodCoverage,
} from '../model/coverage.ts';
import { type XmlAttributes, XmlScanner } from '../xml/scanner.ts';
import { totals } from './lcov.ts';
import { type ByteParser, type ByteParserOptions, Interner, languageOf, newLine } from './shared.ts';

type FileState = {
  path: string;
  lines: LineCoverage[];
  methods: MethodCoverage[];
  classes: ClassCoverage[];
  statements: number;
  coveredStatements: number;
  /** Depth of the <file> element: its own <metrics> is the child one level deeper. */
  depth: number;
  /** The file's own <metrics>, when written: the producer's figures, preferred to line sums. */
  metrics: Pick<Counters, 'instruction' | 'branch' | 'method'> | null;
};

/**
 * Clover XML (OpenClover, istanbul's clover reporter, PHPUnit). Per <line>: type="stmt" and
 * type="cond" lines are coverable (hits = count; a cond line's branches are truecount/falsecount
 * outcomes, each covered when non-zero); type="method" lines are methods. Counters: instruction
 * = statements, branch = conditionals and method = methods from the file's own <metrics> when it
 * has one, else from stmt, cond and method lines; line from the line data. Complexity and class
 * are null. The metrics win because producers disagree on the lines: istanbul writes every line
 * as a statement, a cond line's truecount/falsecount as covered/uncovered branch counts and no
 * method lines, while OpenClover counts true/false evaluations.
 */
export function cloverParser(options: ByteParserOptions = {}): ByteParser {
  const names = new Interner();
  const optionalName = (value: string | undefined) => (value === undefined || value === '' ? null : names.get(value));
  const files: FileState[] = [];
  let file: FileState | null = null;
  let rootSeen = false;

  const scanner: XmlScanner = new XmlScanner(
    {
      open(name, attributes, depth) {
        if (depth === 0) {
          if (name !== 'coverage')
            scanner.fail('format-mismatch', `root element <${name}> is not Clover's <coverage>`, -1);
          rootSeen = true;
          return;
        }
        if (name === 'file') {
          const raw = attributes.get('path') ?? attributes.get('name');
          if (raw === undefined) scanner.fail('bad-attribute', '<file> lacks path and name', -1);
          file = {
            path: names.get(raw.replaceAll('\\', '/')),
            lines: [],
            methods: [],
            classes: [],
            statements: 0,
            coveredStatements: 0,
            depth,
            metrics: null,
          };
          files.push(file);
        } else if (name === 'metrics' && file && depth === file.depth + 1) {
          file.metrics = {
            instruction: metric(attributes, 'coveredstatements', 'statements'),
            branch: metric(attributes, 'coveredconditionals', 'conditionals'),
            method: metric(attributes, 'coveredmethods', 'methods'),
          };
        } else if (name === 'class' && file) {
          file.classes.push({
            name: names.get(attributes.get('name') ?? file.path),
            methods: [],
            counters: emptyCounters(),
          });
        } else if (name === 'line' && file) addLine(file, attributes);
      },
      close(name) {
        if (name === 'file') file = null;
      },
    },
    'clover',
  );
  scanner.countLines = options.countLines ?? true;

  function number(raw: string | undefined, what: string): number {
    if (raw === undefined || !/^\d{1,15}$/.test(raw))
      return scanner.fail('bad-number', `${what} "${(raw ?? '').slice(0, 40)}" is not a non-negative integer`, -1);
    return Number(raw);
  }

  function metric(attributes: XmlAttributes, covered: string, total: string): Counter | null {
    if (attributes.get(total) === undefined) return null;
    const all = number(attributes.get(total), total);
    const hit = number(attributes.get(covered) ?? '0', covered);
    if (hit > all) scanner.fail('bad-number', `${covered} ${hit} is more than ${total} ${all}`, -1);
    return counter(hit, all - hit);
  }

  function addLine(state: FileState, attributes: XmlAttributes): void {
    const line = number(attributes.get('num'), 'line num');
    if (line < 1 || line > 2 ** 31 - 1) scanner.fail('bad-number', `line ${line} out of range`, -1);
    const type = attributes.get('type');
    if (type === 'method') {
      const hits = number(attributes.get('count') ?? '0', 'count');
      const counters = emptyCounters();
      counters.method = counter(hits > 0 ? 1 : 0, hits > 0 ? 0 : 1);
      state.methods.push({
        name: names.get(attributes.get('name') ?? attributes.get('signature') ?? `line ${line}`),
        signature: optionalName(attributes.get('signature')),
        startLine: line,
        endLine: null,
        counters,
      });
      return;
    }
    if (type !== 'stmt' && type !== 'cond')
      scanner.fail('bad-attribute', `line type "${(type ?? '').slice(0, 20)}" is not stmt, cond or method`, -1);
    const hits = number(attributes.get('count') ?? '0', 'count');
    const entry = newLine(line, hits);
    if (type === 'cond') {
      const t = number(attributes.get('truecount') ?? '0', 'truecount');
      const f = number(attributes.get('falsecount') ?? '0', 'falsecount');
      entry.branchesTotal = 2;
      entry.branchesCovered = (t > 0 ? 1 : 0) + (f > 0 ? 1 : 0);
    } else {
      state.statements++;
      if (hits > 0) state.coveredStatements++;
    }
    state.lines.push(entry);
  }

  return {
    write: (bytes) => scanner.write(bytes),
    end(): Coverage {
      scanner.end();
      if (!rootSeen) scanner.fail('format-mismatch', 'no <coverage> element', 0);
      const result: FileCoverage[] = files.map((state) => {
        const lines = joinRepeatedLines(state.lines.sort((a, b) => a.line - b.line));
        const counters = emptyCounters();
        counters.instruction = counter(state.coveredStatements, state.statements - state.coveredStatements);
        counters.line = lineCounter(lines);
        counters.branch = branchCounter(lines);
        const hit = state.methods.filter((m) => m.counters.method?.covered).length;
        counters.method = counter(hit, state.methods.length - hit);
        if (state.metrics) {
          counters.instruction = state.metrics.instruction ?? counters.instruction;
          counters.branch = state.metrics.branch ?? counters.branch;
          counters.method = state.metrics.method ?? counters.method;
        }
        const classes =
          state.classes.length > 0
            ? state.classes
            : state.methods.length > 0
              ? [{ name: state.path, methods: [], counters: emptyCounters() }]
              : [];
        if (classes[0]) classes[0].methods = state.methods;
        return { path: state.path, language: languageOf(state.path), lines, classes, counters };
      });
      return { format: 'clover', files: result, counters: totals(result) };
    },
  };
}

/**
 * One entry per line number, from lines sorted by number: the entries of a line written more than
 * once (OpenClover writes a cond line per condition, and a line may repeat anywhere in the file)
 * joined, keeping the most hits and adding up the branches, whatever their order.
 */
function joinRepeatedLines(lines: LineCoverage[]): LineCoverage[] {
  let kept = 0;
  for (const entry of lines) {
    const last = kept > 0 ? (lines[kept - 1] as LineCoverage) : null;
    if (last && last.line === entry.line) {
      last.hits = Math.max(last.hits, entry.hits);
      last.branchesTotal += entry.branchesTotal;
      last.branchesCovered += entry.branchesCovered;
    } else lines[kept++] = entry;
  }
  lines.length = kept;
  return lines;
}
