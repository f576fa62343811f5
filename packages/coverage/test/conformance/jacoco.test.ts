import { beforeAll, describe, expect, it } from 'vitest';
import { COUNTER_KINDS, type Counter, type Counters, type Coverage } from '../../src/index.ts';
import { readCoverageFile } from '../../src/node/index.ts';
import { type JacocoElement, type JacocoXmlFigures, readJacocoXml } from './jacoco-counters.ts';
import { fixturePath, readFixture } from './tool-output.ts';

// JaCoCo 0.8.6's own XML (made by its Ant task from a real agent run) is the reference: every
// counter the library reports, and every sum of the line data it parsed, must equal JaCoCo's.
const xml = readFixture('jacoco/jacoco.xml');
const jacoco: JacocoXmlFigures = readJacocoXml(xml);
let coverage: Coverage;

beforeAll(async () => {
  coverage = await readCoverageFile(fixturePath('jacoco/jacoco.xml'));
});

/** JaCoCo writes only non-empty counters; an absent one is 0 of 0. */
function expected(element: JacocoElement | undefined): Record<string, Counter> {
  if (!element) throw new Error('element missing from the XML');
  return Object.fromEntries(COUNTER_KINDS.map((kind) => [kind, element.counters[kind] ?? { covered: 0, missed: 0 }]));
}

function elementsOf(kind: string): JacocoElement[] {
  return [...jacoco.elements.values()].filter((e) => e.key.startsWith(`${kind}:`));
}

function sum(all: readonly Counters[]): Record<string, Counter> {
  return Object.fromEntries(
    COUNTER_KINDS.map((kind) => [
      kind,
      all.reduce(
        (acc, counters) => ({
          covered: acc.covered + (counters[kind]?.covered ?? 0),
          missed: acc.missed + (counters[kind]?.missed ?? 0),
        }),
        { covered: 0, missed: 0 },
      ),
    ]),
  );
}

describe('JaCoCo XML made by JaCoCo 0.8.6', () => {
  it('is a real report with every level present', () => {
    expect(coverage.format).toBe('jacoco');
    expect(elementsOf('package').length).toBeGreaterThan(1);
    expect(elementsOf('sourcefile')).toHaveLength(coverage.files.length);
  });

  it('has the report counters of the XML, and they equal the sums over the parsed files', () => {
    expect(coverage.counters).toEqual(expected(jacoco.elements.get('report')));
    expect(sum(coverage.files.map((f) => f.counters))).toEqual(expected(jacoco.elements.get('report')));
  });

  // A line shared by two classes (an inner class on one line) counts once per source file but once
  // per class, so only the per-source-file sums give the package's LINE counter.
  it('has each package counter as the sum over that package’s parsed files and classes', () => {
    for (const pkg of elementsOf('package')) {
      const name = pkg.key.slice('package:'.length);
      const files = coverage.files.filter((f) => f.path.slice(0, f.path.lastIndexOf('/')) === name);
      expect(sum(files.map((f) => f.counters)), pkg.key).toEqual(expected(pkg));
      const classes = files.flatMap((f) => f.classes.map((c) => c.counters));
      const { class: _, line: __, ...byClass } = expected(pkg);
      const { class: ___, line: ____, ...classSums } = sum(classes);
      expect(classSums, pkg.key).toEqual(byClass);
    }
  });

  it('has each source file’s counters, and its line data sums to them', () => {
    for (const file of coverage.files) {
      const key = `sourcefile:${file.path}`;
      const own = expected(jacoco.elements.get(key));
      expect(file.counters, key).toEqual(own);
      const instructions = file.lines.reduce(
        (acc, l) => ({
          covered: acc.covered + (l.instructionsCovered ?? 0),
          missed: acc.missed + (l.instructionsMissed ?? 0),
        }),
        { covered: 0, missed: 0 },
      );
      const branches = file.lines.reduce(
        (acc, l) => ({
          covered: acc.covered + l.branchesCovered,
          missed: acc.missed + l.branchesTotal - l.branchesCovered,
        }),
        { covered: 0, missed: 0 },
      );
      const coveredLines = file.lines.filter((l) => l.hits > 0).length;
      expect(
        {
          instruction: instructions,
          branch: branches,
          line: { covered: coveredLines, missed: file.lines.length - coveredLines },
        },
        key,
      ).toEqual({
        instruction: own.instruction,
        branch: own.branch,
        line: own.line,
      });
    }
  });

  it('keeps every <line> row: number, hits from ci, instructions and branches', () => {
    for (const file of coverage.files) {
      const rows = jacoco.lines.get(`sourcefile:${file.path}`) ?? [];
      expect(
        file.lines.map((l) => [
          l.line,
          l.hits > 0,
          l.instructionsCovered,
          l.instructionsMissed,
          l.branchesCovered,
          l.branchesTotal,
        ]),
        file.path,
      ).toEqual(rows.map((r) => [r.nr, r.ci > 0, r.ci, r.mi, r.cb, r.cb + r.mb]));
    }
  });

  it('has each class’s and method’s counters as JaCoCo wrote them', () => {
    const classes = coverage.files.flatMap((f) => f.classes);
    expect(classes.map((c) => c.name).sort()).toEqual(
      elementsOf('class')
        .map((e) => e.key.slice(6))
        .sort(),
    );
    for (const cls of classes) {
      expect(cls.counters, cls.name).toEqual(expected(jacoco.elements.get(`class:${cls.name}`)));
      for (const method of cls.methods) {
        const key = `method:${cls.name}#${method.name}${method.signature}@${method.startLine ?? ''}`;
        expect(method.counters, key).toEqual(expected(jacoco.elements.get(key)));
      }
    }
    expect(classes.flatMap((c) => c.methods)).toHaveLength(elementsOf('method').length);
  });

  // The CSV names classes as Java source does (`Report.new IntPredicate() {...}`), so rows are
  // compared per package as sorted lists of counters rather than by name.
  it('agrees with the CSV report JaCoCo wrote in the same run', () => {
    const [header, ...rows] = readFixture('jacoco/jacoco.csv').trim().split('\n');
    const columns = header!.split(',');
    const kinds = ['instruction', 'branch', 'line', 'complexity', 'method'] as const;
    const csv = rows.map((row) => {
      const cells = row.split(',');
      const cell = (name: string) => cells[columns.indexOf(name)]!;
      const figures = kinds.map(
        (kind) => `${cell(`${kind.toUpperCase()}_COVERED`)}/${cell(`${kind.toUpperCase()}_MISSED`)}`,
      );
      return `${cell('PACKAGE').replaceAll('.', '/')} ${figures.join(' ')}`;
    });
    const ours = coverage.files
      .flatMap((f) => f.classes)
      // The CSV leaves out classes without code (an interface); the XML lists them with no counters.
      .filter((c) => (c.counters.instruction?.covered ?? 0) + (c.counters.instruction?.missed ?? 0) > 0)
      .map((c) => {
        const figures = kinds.map((kind) => `${c.counters[kind]?.covered}/${c.counters[kind]?.missed}`);
        return `${c.name.slice(0, c.name.lastIndexOf('/'))} ${figures.join(' ')}`;
      });
    expect(ours.sort()).toEqual(csv.sort());
  });
});
