import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/fixtures/catch-error.ts';
import { parseCoverage } from './parser.ts';

const LCOV = `TN:
SF:/build/src/a.c
FN:3,main
FN:10,helper
FNDA:4,main
FNDA:0,helper
FNF:2
FNH:1
DA:3,4
DA:4,4
DA:10,0
BRDA:4,0,0,3
BRDA:4,0,1,-
BRF:2
BRH:1
LF:3
LH:2
end_of_record
SF:/build/src/a.c
DA:10,2
end_of_record
`;

describe('LCOV', () => {
  it('derives line, branch and method counters and leaves the rest null', () => {
    const coverage = parseCoverage(LCOV);
    expect(coverage.format).toBe('lcov');
    expect(coverage.files).toHaveLength(1);
    const file = coverage.files[0];
    expect(file?.lines).toEqual([
      { line: 3, hits: 4, branchesCovered: 0, branchesTotal: 0, instructionsCovered: null, instructionsMissed: null },
      { line: 4, hits: 4, branchesCovered: 1, branchesTotal: 2, instructionsCovered: null, instructionsMissed: null },
      { line: 10, hits: 2, branchesCovered: 0, branchesTotal: 0, instructionsCovered: null, instructionsMissed: null },
    ]);
    expect(coverage.counters).toEqual({
      instruction: null,
      branch: { covered: 1, missed: 1 },
      line: { covered: 3, missed: 0 },
      complexity: null,
      method: { covered: 1, missed: 1 },
      class: null,
    });
    expect(file?.classes[0]?.methods.map((m) => [m.name, m.startLine])).toEqual([
      ['main', 3],
      ['helper', 10],
    ]);
  });

  it.each([
    ['DA:3,-1', 'bad-number'],
    ['DA:3,99999999999999999999', 'bad-number'],
    ['DA:0,1', 'bad-number'],
    ['BRDA:3,0,0,-5', 'bad-number'],
    ['FNDA:-2,main', 'bad-number'],
    ['XX:1', 'bad-record'],
    // At the edges of what the byte scanner reads itself: each goes on to the checked text path.
    ['DA:3,9007199254740993', 'bad-number'],
    ['DA:2147483648,1', 'bad-number'],
    ['DA:3,-0', 'bad-number'],
    ['DA:3,', 'bad-number'],
    ['DA:,1', 'bad-number'],
    ['DA: 3,1', 'bad-number'],
    ['DA:3', 'bad-record'],
    ['FNDA:1', 'bad-record'],
    ['FNDA:99999999999999999,main', 'bad-number'],
  ])('refuses %s with %s at its line', (record, code) => {
    const error = catchError(() => parseCoverage(`SF:a.c\n${record}\nend_of_record\n`, { fileName: 'lcov.info' }));
    expect(error.code).toBe(code);
    expect(error.line).toBe(2);
    expect(error.file).toBe('lcov.info');
  });

  it('reads the largest line numbers and counts, whichever path reads them', () => {
    const counts = ['123456789012345', '1234567890123456', '9007199254740991'];
    const text = counts.map((count, i) => `DA:${2147483645 + i},${count}`).join('\r\n');
    const coverage = parseCoverage(`SF:a.c\n${text}\nend_of_record\n`);
    expect(coverage.files[0]?.lines.map((l) => [l.line, l.hits])).toEqual(
      counts.map((count, i) => [2147483645 + i, Number(count)]),
    );
  });

  it('refuses a record cut off before end_of_record', () => {
    expect(catchError(() => parseCoverage('SF:a.c\nDA:1,1\n')).code).toBe('unexpected-eof');
  });

  // coverage.py 6.5 writes BRDA:0 for arcs leaving a function; `lcov --summary` counts such branches
  // but, like every BRDA without a DA line, they make no line coverable.
  it('counts branches on line 0 or on lines without DA as lcov does, without inventing lines', () => {
    const coverage = parseCoverage(
      'SF:a.py\nDA:1,1\nBRDA:0,0,0,1\nBRDA:0,0,1,-\nBRDA:7,1,0,1\nBRDA:1,2,0,1\nend_of_record\n',
    );
    expect(coverage.files[0]?.lines.map((l) => [l.line, l.branchesCovered, l.branchesTotal])).toEqual([[1, 1, 1]]);
    expect([coverage.counters.line, coverage.counters.branch]).toEqual([
      { covered: 1, missed: 0 },
      { covered: 3, missed: 1 },
    ]);
  });
});

describe('Go cover profiles', () => {
  const profile = `mode: set
example.com/m/a.go:3.14,5.2 2 1
example.com/m/a.go:7.10,9.2 1 0
example.com/m/a.go:7.10,9.2 1 1
example.com/m/a.go:11.1,11.20 1 0
`;
  it('merges duplicate blocks (set mode: max) and counts statements as instructions', () => {
    const coverage = parseCoverage(profile);
    expect(coverage.format).toBe('go');
    const file = coverage.files[0];
    expect(file?.path).toBe('example.com/m/a.go');
    expect(coverage.counters.instruction).toEqual({ covered: 3, missed: 1 });
    expect(coverage.counters.branch).toBeNull();
    expect(file?.lines.map((l) => [l.line, l.hits])).toEqual([
      [3, 1],
      [4, 1],
      [5, 1],
      [7, 1],
      [8, 1],
      [9, 1],
      [11, 0],
    ]);
  });

  it('adds duplicate block counts in count mode', () => {
    const coverage = parseCoverage('mode: count\na.go:1.1,1.5 1 2\na.go:1.1,1.5 1 3\n');
    expect(coverage.files[0]?.lines[0]?.hits).toBe(5);
  });

  it('refuses a malformed block with its line', () => {
    const error = catchError(() => parseCoverage('mode: set\na.go:1.1,1.5 1 2\na.go:1.1 1\n'));
    expect([error.code, error.line]).toEqual(['bad-record', 3]);
  });
});
