/** One file's changes on the new side of a unified diff (`git diff --unified=0 -M`). */
export interface ChangedFile {
  path: string;
  oldPath: string | null;
  status: 'added' | 'modified' | 'renamed' | 'deleted';
  binary: boolean;
  /** New-side line numbers added or modified, ascending. */
  lines: number[];
  /** Base lines removed with nothing added in their place, each placed on the new side. */
  deletions: Deletion[];
}

/**
 * A run of base lines a hunk removed without replacing them: `oldStart`/`count` on the base side,
 * `after` the new-side line they followed (0 = the top of the file). A method whose range holds
 * both `after` and `after + 1` lost lines from its body.
 */
export interface Deletion {
  after: number;
  oldStart: number;
  count: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function unquote(path: string): string {
  if (!path.startsWith('"')) return path;
  return JSON.parse(path) as string;
}

function stripPrefix(path: string): string {
  const p = unquote(path);
  return p.startsWith('a/') || p.startsWith('b/') ? p.slice(2) : p;
}

/** Parses unified diff text into changed files; binary files are flagged and carry no lines. */
export function parseUnifiedDiff(text: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  let current: ChangedFile | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const split = line.lastIndexOf(' b/');
      const path = split > 0 ? line.slice(split + 3) : '';
      current = { path, oldPath: null, status: 'modified', binary: false, lines: [], deletions: [] };
      files.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'deleted';
    else if (line.startsWith('rename from ')) {
      current.oldPath = unquote(line.slice(12));
      current.status = 'renamed';
    } else if (line.startsWith('rename to ')) current.path = unquote(line.slice(10));
    else if (line.startsWith('Binary files ')) current.binary = true;
    else if (line.startsWith('--- ')) {
      const p = line.slice(4);
      if (p !== '/dev/null' && !current.oldPath) current.oldPath = stripPrefix(p);
    } else if (line.startsWith('+++ ')) {
      const p = line.slice(4);
      if (p !== '/dev/null') current.path = stripPrefix(p);
      else if (current.oldPath) current.path = current.oldPath;
    } else {
      const m = HUNK.exec(line);
      if (m) {
        const oldCount = m[2] === undefined ? 1 : Number(m[2]);
        const start = Number(m[3]);
        const count = m[4] === undefined ? 1 : Number(m[4]);
        for (let i = 0; i < count; i++) current.lines.push(start + i);
        // With --unified=0 a pure deletion reads `+N,0`: N is the new-side line before the gap.
        if (count === 0 && oldCount > 0)
          current.deletions.push({ after: start, oldStart: Number(m[1]), count: oldCount });
      }
    }
  }
  for (const f of files) {
    if (f.status !== 'renamed' && f.oldPath === f.path) f.oldPath = null;
  }
  return files.filter((f) => f.path !== '');
}
