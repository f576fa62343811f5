/** One file's changes on the new side of a unified diff (`git diff --unified=0 -M`). */
export interface ChangedFile {
  path: string;
  oldPath: string | null;
  status: 'added' | 'modified' | 'renamed' | 'deleted';
  binary: boolean;
  /** New-side line numbers added or modified, ascending. */
  lines: number[];
  /** The hunks as git wrote them (`--unified=0`), ascending. */
  hunks: DiffHunk[];
  /** Base lines removed with nothing added in their place, each placed on the new side. */
  deletions: Deletion[];
  /**
   * Where diff-cover 7.4 misreads this file's diff: when the base's last line had no newline and
   * was replaced, it counts the `\ No newline at end of file` marker as a line, so it places the
   * hunk's added lines from this new-side line on one line too low. Null when it reads it right.
   */
  diffCoverShiftFrom: number | null;
  /**
   * The file's git object ids from the diff's `index` line when git wrote them in full
   * (`--full-index`); null on the side where the file does not exist. Absent without that line.
   */
  objects?: { base: string | null; head: string | null };
}

/** One `@@ -oldStart,oldCount +newStart,newCount @@` hunk. */
export interface DiffHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
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

const MINUS = 45;
const PLUS = 43;
const SPACE = 32;
const BACKSLASH = 92;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** `index <base>..<head>[ <mode>]` with full SHA-1 or SHA-256 object ids. */
const FULL_INDEX = /^index ([0-9a-f]{40}(?:[0-9a-f]{24})?)\.\.([0-9a-f]{40}(?:[0-9a-f]{24})?)(?: |$)/;
const objectId = (id: string) => (/^0+$/.test(id) ? null : id);

const C_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r' };
const headerText = new TextDecoder('utf-8');

/**
 * A path as git prints it: as is, or C-quoted when it holds a quote, a backslash or a control
 * character (`"a\tb"`; other bytes as octal escapes, `\303\251`, which are UTF-8).
 */
export function unquote(path: string): string {
  if (path.length < 2 || !path.startsWith('"') || !path.endsWith('"')) return path;
  let text = '';
  let octets: number[] = [];
  const flush = () => {
    if (octets.length === 0) return;
    text += headerText.decode(new Uint8Array(octets));
    octets = [];
  };
  for (let i = 1; i < path.length - 1; i++) {
    const c = path[i] as string;
    if (c === '\\' && /^[0-3][0-7]{2}$/.test(path.slice(i + 1, i + 4))) {
      octets.push(Number.parseInt(path.slice(i + 1, i + 4), 8));
      i += 3;
      continue;
    }
    flush();
    if (c !== '\\') text += c;
    else {
      const escaped = path[++i] ?? '';
      text += C_ESCAPES[escaped] ?? escaped;
    }
  }
  flush();
  return text;
}

/**
 * The path of a `---`/`+++` line without its side's prefix. Git ends an unquoted name that has a
 * space with a tab (for GNU patch); a name with a tab of its own is always quoted.
 */
function stripPrefix(name: string): string {
  const p = unquote(name.endsWith('\t') ? name.slice(0, -1) : name);
  return p.startsWith('a/') || p.startsWith('b/') ? p.slice(2) : p;
}

/** The new-side path of a `diff --git a/… b/…` line (quoted names too); `+++` lines may refine it. */
function gitHeaderPath(line: string): string {
  if (line.endsWith('"')) {
    const split = line.lastIndexOf(' "b/');
    return split > 0 ? unquote(`"${line.slice(split + 4)}`) : '';
  }
  const split = line.lastIndexOf(' b/');
  return split > 0 ? line.slice(split + 3) : '';
}

const NEWLINE = 10;

/**
 * Parses a unified diff into changed files; binary files are flagged and carry no lines. Takes
 * git's bytes as they are: only header lines are decoded (UTF-8, as git writes paths with
 * `core.quotePath=false`), so a diff's bodies, nearly all of its bytes, never become a string.
 */
export function parseUnifiedDiff(input: string | Uint8Array): ChangedFile[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const files: ChangedFile[] = [];
  let current: ChangedFile | null = null;
  // Body lines still expected in the current hunk: a body line may itself read `--- x` or `+++ x`.
  let oldLeft = 0;
  let newLeft = 0;
  /** The first character of the line before, as a char code (-1 for an empty line). */
  let previous = -1;
  let hunkNewStart = 0;
  let hunkNewCount = 0;
  // Hunk bodies are counted by their first byte.
  for (let start = 0, end = 0; start <= bytes.length; start = end + 1) {
    end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    const kind = start < end ? (bytes[start] as number) : -1;
    if (current && (oldLeft > 0 || newLeft > 0 || kind === BACKSLASH)) {
      if (kind === MINUS) oldLeft--;
      else if (kind === PLUS) newLeft--;
      else if (kind === SPACE) {
        oldLeft--;
        newLeft--;
      } else if (kind === BACKSLASH && previous === MINUS && hunkNewCount > 0) {
        current.diffCoverShiftFrom = hunkNewStart;
      }
      previous = kind;
      if (kind === MINUS || kind === PLUS || kind === SPACE || kind === BACKSLASH) continue;
    }
    previous = kind;
    const line = headerText.decode(bytes.subarray(start, end));
    if (line.startsWith('diff --git ')) {
      current = {
        path: gitHeaderPath(line),
        oldPath: null,
        status: 'modified',
        binary: false,
        lines: [],
        hunks: [],
        deletions: [],
        diffCoverShiftFrom: null,
      };
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
    else if (line.startsWith('index ')) {
      const ids = FULL_INDEX.exec(line);
      if (ids) current.objects = { base: objectId(ids[1] as string), head: objectId(ids[2] as string) };
    } else if (line.startsWith('--- ')) {
      const p = line.slice(4);
      if (p !== '/dev/null' && !current.oldPath) current.oldPath = stripPrefix(p);
    } else if (line.startsWith('+++ ')) {
      const p = line.slice(4);
      if (p !== '/dev/null') current.path = stripPrefix(p);
      else if (current.oldPath) current.path = current.oldPath;
    } else {
      const m = HUNK.exec(line);
      if (m) {
        oldLeft = m[2] === undefined ? 1 : Number(m[2]);
        const start = Number(m[3]);
        newLeft = m[4] === undefined ? 1 : Number(m[4]);
        hunkNewStart = start;
        hunkNewCount = newLeft;
        current.hunks.push({ oldStart: Number(m[1]), oldCount: oldLeft, newStart: start, newCount: newLeft });
        for (let i = 0; i < newLeft; i++) current.lines.push(start + i);
        // With --unified=0 a pure deletion reads `+N,0`: N is the new-side line before the gap.
        if (newLeft === 0 && oldLeft > 0)
          current.deletions.push({ after: start, oldStart: Number(m[1]), count: oldLeft });
      }
    }
  }
  for (const f of files) {
    if (f.status !== 'renamed' && f.oldPath === f.path) f.oldPath = null;
  }
  return files.filter((f) => f.path !== '');
}
