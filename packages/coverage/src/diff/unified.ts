/** One file's changes on the new side of a unified diff (`git diff --unified=0 -M`). */
export interface ChangedFile {
  path: string;
  oldPath: string | null;
  status: 'added' | 'modified' | 'renamed' | 'deleted';
  binary: boolean;
  /** New-side line numbers added or modified, ascending. */
  lines: number[];
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

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
      current = { path, oldPath: null, status: 'modified', binary: false, lines: [] };
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
        const start = Number(m[1]);
        const count = m[2] === undefined ? 1 : Number(m[2]);
        for (let i = 0; i < count; i++) current.lines.push(start + i);
      }
    }
  }
  for (const f of files) {
    if (f.status !== 'renamed' && f.oldPath === f.path) f.oldPath = null;
  }
  return files.filter((f) => f.path !== '');
}
