import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff, unquote } from './unified.ts';

const diff = [
  'diff --git a/src/A.java b/src/A.java',
  'index 1..2 100644',
  '--- a/src/A.java',
  '+++ b/src/A.java',
  '@@ -3 +3,2 @@ class A',
  '-x',
  '+y',
  '+z',
  '@@ -10,2 +11,0 @@',
  '-gone',
  '-gone',
  'diff --git a/new.py b/new.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/new.py',
  '@@ -0,0 +1,2 @@',
  '+a',
  '+b',
  'diff --git a/old.go b/old.go',
  'deleted file mode 100644',
  '--- a/old.go',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-x',
  'diff --git a/p.c b/q.c',
  'similarity index 90%',
  'rename from p.c',
  'rename to q.c',
  '--- a/p.c',
  '+++ b/q.c',
  '@@ -5 +5 @@',
  '-a',
  '+b',
  'diff --git a/img.png b/img.png',
  'Binary files a/img.png and b/img.png differ',
  '',
].join('\n');

describe('parseUnifiedDiff', () => {
  const files = parseUnifiedDiff(diff);
  it('reads new-side lines of modified files, ignoring pure deletions', () => {
    expect(files[0]).toMatchObject({ path: 'src/A.java', status: 'modified', lines: [3, 4] });
  });
  it('places pure deletions on the new side: base lines 10-11 removed after new line 11', () => {
    expect(files[0]?.deletions).toEqual([{ after: 11, oldStart: 10, count: 2 }]);
    expect(files[0]?.hunks).toEqual([
      { oldStart: 3, oldCount: 1, newStart: 3, newCount: 2 },
      { oldStart: 10, oldCount: 2, newStart: 11, newCount: 0 },
    ]);
    // A replacement (`-3 +3,2`) changes lines; it is no deletion.
    expect(files[3]?.deletions).toEqual([]);
  });
  it('reads added, deleted, renamed and binary files', () => {
    expect(files[1]).toMatchObject({ path: 'new.py', status: 'added', lines: [1, 2] });
    expect(files[2]).toMatchObject({ path: 'old.go', status: 'deleted', lines: [] });
    expect(files[3]).toMatchObject({ path: 'q.c', oldPath: 'p.c', status: 'renamed', lines: [5] });
    expect(files[4]).toMatchObject({ path: 'img.png', binary: true, lines: [] });
  });
  it('reads body lines that look like file headers as body lines', () => {
    // git diff --unified=0 of g.sql: `-- sql` replaced by `++ added`.
    const sql = ['diff --git a/g.sql b/g.sql', '--- a/g.sql', '+++ b/g.sql', '@@ -1 +1 @@', '--- sql', '+++ added'];
    expect(parseUnifiedDiff(sql.join('\n'))).toMatchObject([{ path: 'g.sql', oldPath: null, lines: [1] }]);
  });
  it('notes where diff-cover misplaces lines added after a base without a final newline', () => {
    // git diff --unified=0 of f.txt: 'a\nb\nc' -> 'a\nB\nC\nD', neither ending in a newline.
    const noNewline = [
      'diff --git a/f.txt b/f.txt',
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -2,2 +2,3 @@ a',
      '-b',
      '-c',
      '\\ No newline at end of file',
      '+B',
      '+C',
      '+D',
      '\\ No newline at end of file',
    ];
    expect(parseUnifiedDiff(noNewline.join('\n'))).toMatchObject([{ lines: [2, 3, 4], diffCoverShiftFrom: 2 }]);
    expect(files[0]?.diffCoverShiftFrom).toBeNull();
  });
  it('gives no files for an empty diff', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
  });
});

describe('object ids from --full-index', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const zero = '0'.repeat(40);
  const text = [
    'diff --git a/m.js b/m.js',
    `index ${a}..${b} 100644`,
    '--- a/m.js',
    '+++ b/m.js',
    '@@ -1 +1 @@',
    '-x',
    // A body line that looks like an index line is content, not a header.
    `+index ${b}..${a} 100644`,
    'diff --git a/n.js b/n.js',
    'new file mode 100644',
    `index ${zero}..${a}`,
    '--- /dev/null',
    '+++ b/n.js',
    '@@ -0,0 +1 @@',
    '+y',
    'diff --git a/o.js b/o.js',
    'index 1234567..89abcde 100644',
    '--- a/o.js',
    '+++ b/o.js',
    '@@ -1 +1 @@',
    '-p',
    '+q',
    '',
  ].join('\n');

  it('names both sides, null for the side where the file does not exist, nothing for abbreviated ids', () => {
    const files = parseUnifiedDiff(text);
    expect(files.map((f) => [f.path, f.objects ?? null])).toEqual([
      ['m.js', { base: a, head: b }],
      ['n.js', { base: null, head: a }],
      ['o.js', null],
    ]);
  });
});

describe('parseUnifiedDiff from bytes', () => {
  // git's bytes as they are (core.quotePath=false): a UTF-8 path, and bodies in any script.
  const text = [
    'diff --git a/src/图表/ünï.js b/src/图表/ünï.js',
    '--- a/src/图表/ünï.js',
    '+++ b/src/图表/ünï.js',
    '@@ -2 +2,2 @@',
    '-// 旧的注释',
    '+// 新的注释',
    '+const ä = 1;',
    '@@ -9,3 +10,0 @@',
    '-一',
    '-二',
    '-三',
    '',
  ].join('\n');

  it('reads the same files as from the decoded text, paths decoded as UTF-8', () => {
    const fromBytes = parseUnifiedDiff(new TextEncoder().encode(text));
    expect(fromBytes).toEqual(parseUnifiedDiff(text));
    expect(fromBytes.map((f) => [f.path, f.lines, f.deletions])).toEqual([
      ['src/图表/ünï.js', [2, 3], [{ after: 10, oldStart: 9, count: 3 }]],
    ]);
  });
});

describe('quoted paths', () => {
  it('unquotes git’s C-style names: escapes, octal UTF-8 bytes, and names that need none', () => {
    expect(unquote('"say \\"hi\\".js"')).toBe('say "hi".js');
    expect(unquote('"tab\\there\\\\x\\a.js"')).toBe('tab\there\\x\x07.js');
    expect(unquote('"caf\\303\\251/\\345\\233\\276.js"')).toBe('café/图.js');
    expect(unquote('plain "name".js')).toBe('plain "name".js');
  });

  it('drops the tab git puts after a name with a space, and reads quoted header names', () => {
    const diff = [
      'diff --git a/dir with space/a b.js b/dir with space/a b.js',
      'index 05fc08f553e15466243fd7713adf67facc84b475..40fae75b240359e411849a73bc26028ef3a57ec2 100644',
      '--- a/dir with space/a b.js\t',
      '+++ b/dir with space/a b.js\t',
      '@@ -1,0 +2 @@',
      '+two',
      'diff --git "a/caf\\303\\251.bin" "b/caf\\303\\251.bin"',
      'index 05fc08f553e15466243fd7713adf67facc84b475..40fae75b240359e411849a73bc26028ef3a57ec2 100644',
      'Binary files "a/caf\\303\\251.bin" and "b/caf\\303\\251.bin" differ',
      '',
    ].join('\n');
    expect(parseUnifiedDiff(diff).map((f) => [f.path, f.oldPath, f.lines, f.binary])).toEqual([
      ['dir with space/a b.js', null, [2], false],
      ['café.bin', null, [], true],
    ]);
  });
});
