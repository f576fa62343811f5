import type { ChangedFile } from '../diff/unified.ts';

/**
 * A tree with copies of the same files (vendored packages, generated code, a monorepo's twins)
 * has the same change many times over, and git works out each one's hunks again. `git diff --raw`
 * names every changed pair by its object ids at a small part of the patch's cost, so the patch is
 * asked only for one file of each set of identical changes and the others are copied from it.
 */

/** One changed file of `git diff --raw -z`. */
export interface RawChange {
  /** What decides the patch's body: modes, object ids and status, with the `diff` attributes once known. */
  key: string;
  /** The status letter (M, A, D, R, T …) without a rename's score. */
  status: string;
  /** The new-side path (the old one for a deletion). */
  path: string;
  /** The old path of a rename, else null (as `parseUnifiedDiff` gives it). */
  oldPath: string | null;
  objects: { base: string | null; head: string | null };
}

const NO_OBJECT = /^0+$/;

/**
 * Parses `git diff --raw -z --no-abbrev` output: `:oldmode newmode oldid newid status\0path\0`,
 * with a second path after a rename or copy's status.
 */
export function parseRawDiff(text: string): RawChange[] {
  const fields = text.split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i < fields.length - 1; ) {
    const header = fields[i++] as string;
    const [oldMode, newMode, oldId, newId, status] = header.slice(1).split(' ');
    if (!header.startsWith(':') || status === undefined || newId === undefined) {
      throw new Error(`unexpected git diff --raw line ${JSON.stringify(header)}`);
    }
    const first = fields[i++] as string;
    const twoPaths = status.startsWith('R') || status.startsWith('C');
    const second = twoPaths ? (fields[i++] as string) : null;
    changes.push({
      key: `${oldMode} ${newMode} ${oldId} ${newId} ${status}`,
      status: status.slice(0, 1),
      path: second ?? first,
      oldPath: second === null ? null : first,
      objects: {
        base: NO_OBJECT.test(oldId as string) ? null : (oldId as string),
        head: NO_OBJECT.test(newId) ? null : newId,
      },
    });
  }
  return changes;
}

/** Copies below this share of the changed files are not worth a second git process. */
const MIN_COPY_SHARE = 0.25;
const MIN_COPIES = 16;
/** Bound on the bytes of the paths handed to git as arguments (Linux allows 2 MiB in all). */
const MAX_ARGUMENT_BYTES = 512 * 1024;

/** Whether enough changes copy another's (the same key) to ask git for one of each: MIN_COPIES, and MIN_COPY_SHARE of all. */
export function hasEnoughCopies(changes: readonly RawChange[]): boolean {
  const keys = new Set(changes.map((c) => c.key));
  const copies = changes.length - keys.size;
  return copies >= MIN_COPIES && copies >= changes.length * MIN_COPY_SHARE;
}

/** The paths both sides of `changes` name, for `git check-attr`. */
export function pathsOf(changes: readonly RawChange[]): string[] {
  return [...new Set(changes.flatMap((c) => (c.oldPath === null ? [c.path] : [c.oldPath, c.path])))];
}

/**
 * The pathspecs of one change of each group, its key (extended in place) holding the `diff`
 * attribute of each path too (`-diff` or a driver can make one copy binary and not another).
 * Renames apart: asked together, an addition and a deletion that git left unpaired among all the
 * changes might pair up among fewer, so those are asked with renames off. Null without the
 * attributes or when a pathspec would be too long to pass.
 */
export function representatives(
  changes: readonly RawChange[],
  diffAttribute: ReadonlyMap<string, string> | null,
): { renames: string[]; others: string[] } | null {
  if (diffAttribute === null) return null;
  const firsts = new Map<string, RawChange>();
  for (const change of changes) {
    const attributes = [change.oldPath, change.path].map((p) => (p === null ? '' : (diffAttribute.get(p) ?? '?')));
    change.key = `${change.key}\0${attributes.join('\0')}`;
    if (!firsts.has(change.key)) firsts.set(change.key, change);
  }
  const pathspec = (some: RawChange[]) => pathsOf(some).map((path) => `:(top,literal)${path}`);
  const all = [...firsts.values()];
  const renames = pathspec(all.filter((c) => c.status === 'R'));
  const others = pathspec(all.filter((c) => c.status !== 'R'));
  return fitsArguments([...renames, ...others]) ? { renames, others } : null;
}

/** Whether `args` are few enough bytes to hand to a process. */
export function fitsArguments(args: readonly string[]): boolean {
  return args.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0) <= MAX_ARGUMENT_BYTES;
}

/** `git check-attr -z diff` output: `path\0diff\0value\0` per path. */
export function parseDiffAttributes(text: string): Map<string, string> {
  const fields = text.split('\0');
  const values = new Map<string, string>();
  for (let i = 0; i + 2 < fields.length; i += 3) values.set(fields[i] as string, fields[i + 2] as string);
  return values;
}

/** Whether git's patch for a representative says what its raw line said: else the copies cannot be trusted to it. */
function agrees(file: ChangedFile, change: RawChange): boolean {
  const status = { A: 'added', D: 'deleted', R: 'renamed' }[change.status] ?? 'modified';
  return (
    file.path === change.path &&
    file.oldPath === change.oldPath &&
    file.status === status &&
    (file.objects === undefined ||
      (file.objects.base === change.objects.base && file.objects.head === change.objects.head))
  );
}

/**
 * Every change's file, in the raw diff's order, from the representatives' parsed patch: a copy
 * takes its representative's lines, hunks and deletions under its own paths. Null when the patch
 * does not answer for a representative exactly as its raw line said (then the caller asks git
 * for the whole patch).
 */
export function expandCopies(changes: readonly RawChange[], patched: readonly ChangedFile[]): ChangedFile[] | null {
  const byPath = new Map(patched.map((file) => [file.path, file]));
  const byKey = new Map<string, ChangedFile>();
  const files: ChangedFile[] = [];
  for (const change of changes) {
    let source = byKey.get(change.key);
    if (!source) {
      source = byPath.get(change.path);
      if (!source || !agrees(source, change)) return null;
      byKey.set(change.key, source);
      files.push(source);
      continue;
    }
    files.push({
      ...source,
      path: change.path,
      oldPath: change.oldPath,
      lines: [...source.lines],
      hunks: source.hunks.map((h) => ({ ...h })),
      deletions: source.deletions.map((d) => ({ ...d })),
      ...(source.objects ? { objects: { ...source.objects } } : {}),
    });
  }
  // Each representative answered by a file of its own, and the patch holds nothing else.
  return new Set(byKey.values()).size === patched.length && byKey.size === patched.length ? files : null;
}
