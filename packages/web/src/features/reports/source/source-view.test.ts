import { describe, expect, it } from 'vitest';
import { buildFileTree } from './file-tree.ts';
import { jumpTarget, lineOfHash } from './line-jumps.ts';
import { type LineInfo, lineInfos, lineState } from './line-marks.ts';
import { sourceTexts } from './texts.ts';
import { grammarFor, tokenize } from './tokenize.ts';

const file = (
  path: string,
  lineCovered: number,
  lineTotal: number,
  changed = false,
  pkg: string | null = null,
  diff: [number, number] | null = null,
) => ({
  path,
  language: null,
  lineCovered,
  lineTotal,
  branchCovered: 0,
  branchTotal: 0,
  changed,
  diffLineCovered: diff?.[0] ?? null,
  diffLineTotal: diff?.[1] ?? null,
  package: pkg,
});

describe('tokenize', () => {
  it('splits keywords, strings, numbers and comments, and carries a block comment across lines', () => {
    const java = grammarFor(null, 'src/A.java');
    const lines = tokenize(['public int f() { return 42; } // done', '/* open', 'still */ String s = "a\\"b";'], java);
    expect(lines[0]).toEqual([
      { kind: 'keyword', text: 'public' },
      { kind: 'plain', text: ' ' },
      { kind: 'keyword', text: 'int' },
      { kind: 'plain', text: ' f() { ' },
      { kind: 'keyword', text: 'return' },
      { kind: 'plain', text: ' ' },
      { kind: 'number', text: '42' },
      { kind: 'plain', text: '; } ' },
      { kind: 'comment', text: '// done' },
    ]);
    expect(lines[1]).toEqual([{ kind: 'comment', text: '/* open' }]);
    expect(lines[2]?.[0]).toEqual({ kind: 'comment', text: 'still */' });
    expect(lines[2]?.find((t) => t.kind === 'string')?.text).toBe('"a\\"b"');
  });

  it('keeps every character: joined tokens give back the line, markup included', () => {
    const source = ['const x = "<img src=x onerror=alert(1)>"; // <b>', 'let y = `a', 'b` + 1'];
    const lines = tokenize(source, grammarFor('typescript', 'x.ts'));
    expect(lines.map((l) => l.map((t) => t.text).join(''))).toEqual(source);
  });

  it('leaves unknown languages as plain text', () => {
    expect(tokenize(['if x'], grammarFor(null, 'README'))).toEqual([[{ kind: 'plain', text: 'if x' }]]);
  });
});

describe('line marks', () => {
  it('marks uncovered, partly covered and covered lines with the branch count on hover', () => {
    expect(lineState({ line: 1, hits: 0, branchesCovered: 0, branchesTotal: 2 })).toBe('uncovered');
    expect(lineState({ line: 1, hits: 3, branchesCovered: 2, branchesTotal: 4 })).toBe('partial');
    expect(lineState({ line: 1, hits: 1, branchesCovered: 0, branchesTotal: 0 })).toBe('covered');
    const infos = lineInfos({
      path: 'a.js',
      commit: 'c',
      language: null,
      lines: ['a', 'b', 'c'],
      marks: [{ line: 2, hits: 3, branchesCovered: 2, branchesTotal: 4 }],
      changedLines: [3],
      carriedLines: [],
      methods: [],
    });
    expect(infos[0]).toEqual({ state: null, title: undefined, changed: false });
    // The hit count too, for the gutter (a line the report does not measure has none).
    expect(infos[1]).toEqual({ state: 'partial', title: 'Run 3 times; 2 of 4 branches', changed: false, hits: 3 });
    expect(infos[2]?.changed).toBe(true);
  });

  it('marks a line only carried coverage covers as carried, saying so on hover; a freshly covered one stays covered', () => {
    const infos = lineInfos({
      path: 'a.js',
      commit: 'c',
      language: null,
      lines: ['a', 'b', 'c'],
      marks: [
        { line: 1, hits: 0, branchesCovered: 0, branchesTotal: 0 },
        { line: 2, hits: 0, branchesCovered: 0, branchesTotal: 0 },
        { line: 3, hits: 2, branchesCovered: 0, branchesTotal: 0 },
      ],
      changedLines: [],
      carriedLines: [2, 3],
      methods: [],
    });
    expect(infos.map((i) => i.state)).toEqual(['uncovered', 'carried', 'covered']);
    expect(infos[1]?.title).toBe('Not run — covered on an older build, unchanged since (carried forward)');
    expect(infos[1]?.hits).toBe(0);
  });

  it('words the hover text in the chosen language, with its number format', () => {
    const view = {
      path: 'a.js',
      commit: 'c',
      language: null,
      lines: ['a', 'b', 'c'],
      marks: [
        { line: 1, hits: 0, branchesCovered: 0, branchesTotal: 0 },
        { line: 2, hits: 12345, branchesCovered: 1, branchesTotal: 2 },
        { line: 3, hits: 1, branchesCovered: 0, branchesTotal: 0 },
      ],
      changedLines: [],
      carriedLines: [],
      methods: [],
    };
    const zh = lineInfos(view, { words: sourceTexts.zh.line, formatNumber: (n) => n.toLocaleString('zh-CN') });
    expect(zh.map((i) => i.title)).toEqual(['未执行', '执行 12,345 次；分支覆盖 1/2', '执行 1 次']);
    expect(lineInfos(view).map((i) => i.title)).toEqual(['Not run', 'Run 12,345 times; 1 of 2 branches', 'Run 1 time']);
  });
});

describe('file tree', () => {
  it('sums folders, joins single-child folders and lists folders first', () => {
    const tree = buildFileTree([
      file('src/main/a/A.java', 1, 2, true),
      file('src/main/a/b/B.java', 3, 4),
      file('src/main/Z.java', 0, 4),
    ]);
    expect(tree).toHaveLength(1);
    const main = tree[0];
    expect(main?.name).toBe('src/main');
    expect([main?.lineCovered, main?.lineTotal, main?.changed]).toEqual([4, 10, true]);
    expect(main?.children?.map((c) => c.name)).toEqual(['a', 'Z.java']);
    expect(main?.children?.[0]?.children?.map((c) => c.name)).toEqual(['b', 'A.java']);
  });

  it("puts a monorepo's packages at the top level, each with its lines and changed lines", () => {
    const tree = buildFileTree([
      file('packages/alpha/src/util.js', 2, 7, true, 'packages/alpha', [2, 7]),
      file('packages/beta/src/util.js', 5, 6, true, 'packages/beta', [4, 6]),
      file('packages/beta/src/more/x.js', 1, 1, false, 'packages/beta'),
      file('scripts/build.js', 0, 3),
    ]);
    expect(tree.map((n) => [n.name, n.isPackage ?? false])).toEqual([
      ['packages/alpha', true],
      ['packages/beta', true],
      ['scripts', false],
    ]);
    const [alpha, beta] = tree;
    expect([alpha?.lineCovered, alpha?.lineTotal, alpha?.diffCovered, alpha?.diffTotal]).toEqual([2, 7, 2, 7]);
    expect([beta?.lineCovered, beta?.lineTotal, beta?.diffCovered, beta?.diffTotal]).toEqual([6, 7, 4, 6]);
    // Inside a package, folders are joined as elsewhere; keys stay repository paths.
    expect(alpha?.children?.map((c) => [c.name, c.key])).toEqual([['src', 'packages/alpha/src']]);
    expect(beta?.children?.[0]?.children?.map((c) => c.name)).toEqual(['more', 'util.js']);
  });
});

describe('jumps and permalinks', () => {
  const info = (state: LineInfo['state'], changed = false): LineInfo => ({ state, title: undefined, changed });
  // Lines 1..8: covered, uncovered, uncovered, covered, partial, -, changed, changed+uncovered
  const infos = [
    info('covered'),
    info('uncovered'),
    info('uncovered'),
    info('covered'),
    info('partial'),
    info(null),
    info('covered', true),
    info('uncovered', true),
  ];

  it('stops at the first line of each run of uncovered (or partly covered) lines, both ways', () => {
    expect(jumpTarget(infos, 0, 'uncovered', 1)).toBe(2);
    expect(jumpTarget(infos, 2, 'uncovered', 1)).toBe(5);
    expect(jumpTarget(infos, 5, 'uncovered', 1)).toBe(8);
    expect(jumpTarget(infos, 8, 'uncovered', 1)).toBeNull();
    expect(jumpTarget(infos, 8, 'uncovered', -1)).toBe(5);
    expect(jumpTarget(infos, 5, 'uncovered', -1)).toBe(2);
    expect(jumpTarget(infos, 2, 'uncovered', -1)).toBeNull();
  });

  it('jumps between changed blocks the same way', () => {
    expect(jumpTarget(infos, 0, 'changed', 1)).toBe(7);
    expect(jumpTarget(infos, 7, 'changed', 1)).toBeNull();
    expect(jumpTarget(infos, 8, 'changed', -1)).toBe(7);
  });

  it('reads a line from a #L permalink only', () => {
    expect(lineOfHash('#L42')).toBe(42);
    expect(lineOfHash('#L')).toBeNull();
    expect(lineOfHash('#x42')).toBeNull();
    expect(lineOfHash('')).toBeNull();
  });
});
