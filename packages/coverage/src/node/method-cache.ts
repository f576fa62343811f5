import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FileMethods } from '../figures/incremental.ts';
import { sha1HexPortable } from '../methods/sha1.ts';
import type { SourceMethod } from '../methods/types.ts';
import { nodeCrypto } from './builtins.ts';

/**
 * Method extractions kept on disk between runs, keyed by the git object ids of the two texts, the
 * changes and the extractor itself (its code and its grammars), so an entry can only be read by
 * the code that would compute it again: repeated runs over the same commits skip tree-sitter.
 *
 * A run's new entries go into one segment file, named in an append-only index (`<key> <segment>`
 * per line): creating a file costs far more than writing one here (0.8 ms each on the bench
 * machine, where a file per entry made a first run wait 0.3 s for 325 writes).
 * Best effort: an unreadable or unwritable entry is a miss, never an error.
 */
export class MethodCache {
  /** Which segment holds each key asked for so far or written by this run. */
  private readonly segments = new Map<string, string>();

  private constructor(
    private readonly dir: string,
    /** The index as read when the cache was opened; looked through for the keys a run asks for. */
    private readonly index: string,
  ) {}

  /**
   * The cache under `root`, dropping entries of other extractor versions and, once a day, the
   * oldest segments beyond `maxEntries` entries (down to 80% of it).
   */
  static async open(root: string, maxEntries = DEFAULT_MAX_ENTRIES): Promise<MethodCache> {
    // Synchronous (a few ms in all): opened while a report is parsed, each asynchronous step
    // would wait for a turn of the busy event loop, and the changed methods wait for the cache.
    const dir = join(root, `methods-${extractorVersion()}`);
    try {
      for (const entry of readdirSync(root)) {
        if (entry.startsWith('methods-') && join(root, entry) !== dir)
          rmSync(join(root, entry), { recursive: true, force: true });
      }
    } catch {
      // No cache folder yet.
    }
    if (pruneIsDue(dir)) await pruneDaily(dir, maxEntries).catch(() => undefined);
    return new MethodCache(dir, readOr(join(dir, INDEX), ''));
  }

  /** The key of one file's extraction; null when a text has no object id (nothing to key on). */
  static keyOf(extractionKey: string, headOid: string | null, baseOid: string | null, hasBase: boolean): string | null {
    if (headOid === null || (hasBase && baseOid === null)) return null;
    return nodeCrypto()
      .createHash('sha1')
      .update(`${extractionKey}\u0000${headOid}\u0000${baseOid ?? ''}`)
      .digest('hex');
  }

  /** The kept extractions of `keys`, null for each one missing or damaged; each segment is read once. */
  async getAll(keys: readonly string[]): Promise<(FileMethods | null)[]> {
    findInIndex(this.index, new Set(keys.filter((key) => !this.segments.has(key))), this.segments);
    const wanted = new Set(keys.flatMap((key) => this.segments.get(key) ?? []));
    const read = new Map([...wanted].map((segment) => [segment, readSegment(this.dir, segment)] as const));
    return keys.map((key) => {
      const segment = this.segments.get(key);
      const value = segment === undefined ? undefined : read.get(segment)?.[key];
      return isFileMethods(value) ? value : null;
    });
  }

  /**
   * Keeps the entries in new segments of at most SEGMENT_ENTRIES (a later run wanting a few of
   * them parses no more than that), then names them in the index.
   */
  async setAll(entries: readonly (readonly [string, FileMethods])[]): Promise<void> {
    const parts = [];
    for (let at = 0; at < entries.length; at += SEGMENT_ENTRIES) parts.push(entries.slice(at, at + SEGMENT_ENTRIES));
    await Promise.all(parts.map((part) => this.setSegment(part)));
  }

  private async setSegment(entries: readonly (readonly [string, FileMethods])[]): Promise<void> {
    const segment = `${Date.now().toString(36)}-${process.pid}-${nodeCrypto().randomBytes(4).toString('hex')}`;
    const path = join(this.dir, SEGMENTS, `${segment}.json`);
    const temporary = `${path}.tmp`;
    try {
      await mkdir(join(this.dir, SEGMENTS), { recursive: true });
      await writeFile(temporary, JSON.stringify(Object.fromEntries(entries)));
      await rename(temporary, path);
      // Appended in one write, which other runs' appends do not interleave with on a local disk;
      // the leading newline ends a line an interrupted run may have left unfinished.
      await appendFile(join(this.dir, INDEX), `\n${entries.map(([key]) => `${key} ${segment}`).join('\n')}\n`);
      for (const [key] of entries) this.segments.set(key, segment);
    } catch {
      await rm(temporary, { force: true }).catch(() => undefined);
    }
  }
}

/** A few KB each: the default keeps the cache to tens of MB. */
export const DEFAULT_MAX_ENTRIES = 50_000;
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
const INDEX = 'index';
const PRUNED = 'pruned';
const SEGMENT_ENTRIES = 500;
const SEGMENTS = 'segments';
const KEY_LENGTH = 40;
const INDEX_LINE = /^([0-9a-f]{40}) ([0-9a-z]+-\d+-[0-9a-f]{8})$/;

/**
 * The segments of the `wanted` keys (all keys when null) from the index text, into `found`:
 * malformed lines (a torn write) are skipped, a later line wins. Only lines whose first 40
 * characters are a wanted key are checked in full (the index may hold 50,000 lines).
 */
function findInIndex(text: string, wanted: ReadonlySet<string> | null, found: Map<string, string>): void {
  if (wanted?.size === 0) return;
  for (let start = 0, end = 0; start < text.length; start = end + 1) {
    end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end - start <= KEY_LENGTH || (wanted && !wanted.has(text.slice(start, start + KEY_LENGTH)))) continue;
    const match = INDEX_LINE.exec(text.slice(start, end));
    if (match) found.set(match[1] as string, match[2] as string);
  }
}

async function readIndex(dir: string): Promise<Map<string, string>> {
  const segments = new Map<string, string>();
  findInIndex(await readFile(join(dir, INDEX), 'utf8').catch(() => ''), null, segments);
  return segments;
}

/** A file's text, or `otherwise` when it cannot be read. */
function readOr(path: string | URL, otherwise: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return otherwise;
  }
}

/** Read synchronously, like the cache's opening (see MethodCache.open). */
function readSegment(dir: string, segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(join(dir, SEGMENTS, `${segment}.json`), 'utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether a day has passed since the last pruning (the marker file's time), or it never ran. */
function pruneIsDue(dir: string): boolean {
  const last = statSync(join(dir, PRUNED), { throwIfNoEntry: false });
  return !last || Date.now() - last.mtimeMs >= PRUNE_EVERY_MS;
}

/**
 * Removes the oldest segments (by write time) while there are more than `maxEntries` entries, and
 * segments the index does not name; then marks the time (see pruneIsDue, which decides when).
 */
async function pruneDaily(dir: string, maxEntries: number): Promise<void> {
  const marker = join(dir, PRUNED);
  const index = await readIndex(dir);
  const keysOf = new Map<string, string[]>();
  for (const [key, segment] of index) keysOf.set(segment, [...(keysOf.get(segment) ?? []), key]);
  const segments: { name: string; written: number }[] = [];
  for (const file of await readdir(join(dir, SEGMENTS)).catch(() => [])) {
    const name = file.replace(/\.json$/, '');
    const written = (await stat(join(dir, SEGMENTS, file)).catch(() => null))?.mtimeMs;
    if (written === undefined) continue;
    if (keysOf.has(name)) segments.push({ name, written });
    else if (Date.now() - written > PRUNE_EVERY_MS) await rm(join(dir, SEGMENTS, file), { force: true });
  }
  let entries = index.size;
  if (entries > maxEntries) {
    segments.sort((a, b) => a.written - b.written);
    const dropped = new Set<string>();
    for (const { name } of segments) {
      if (entries <= Math.floor(maxEntries * 0.8)) break;
      dropped.add(name);
      entries -= keysOf.get(name)?.length ?? 0;
    }
    const kept = [...index].filter(([, segment]) => !dropped.has(segment));
    const temporary = join(dir, `${INDEX}.${process.pid}.tmp`);
    await writeFile(temporary, kept.map(([key, segment]) => `${key} ${segment}\n`).join(''));
    await rename(temporary, join(dir, INDEX));
    for (const name of dropped) await rm(join(dir, SEGMENTS, `${name}.json`), { force: true });
  }
  await mkdir(dir, { recursive: true });
  await writeFile(marker, '');
}

function isMethod(value: unknown): value is SourceMethod {
  const m = value as SourceMethod;
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof m.name === 'string' &&
    Number.isInteger(m.startLine) &&
    Number.isInteger(m.endLine) &&
    typeof m.bodyHash === 'string'
  );
}

function isFileMethods(value: unknown): value is FileMethods {
  const v = value as FileMethods;
  return Array.isArray(v?.head) && Array.isArray(v?.base) && v.head.every(isMethod) && v.base.every(isMethod);
}

let version: string | null = null;

/**
 * A digest of what decides an extraction (and a commit pair's changes, see changes-cache.ts): the
 * extractor's code (the built CLI's files, whose digest the build writes to `build-id`, else the
 * TypeScript sources) and the tree-sitter runtime and grammar packages.
 */
export function extractorVersion(): string {
  if (version !== null) return version;
  const here = import.meta.url;
  const packages = ['web-tree-sitter', '@vscode/tree-sitter-wasm', 'tree-sitter-wasms'].map(
    (pkg) => `${pkg}@${installedVersion(pkg, here) ?? '?'}`,
  );
  const built = here.endsWith('.ts') ? null : readOr(new URL('./build-id', here), '').trim();
  if (built) {
    version = sha1HexPortable([built, ...packages].join('\n')).slice(0, 16);
    return version;
  }
  const hash = nodeCrypto().createHash('sha1');
  const [folders, extensions] = here.endsWith('.ts')
    ? [['../methods/', '../methods/js-scan/', '../figures/', '../diff/', './', '../../assembly/'], ['.ts']]
    : [['./'], ['.mjs', '.wasm']];
  for (const folder of folders.map((dir) => new URL(dir, here))) {
    const names = readdirSync(folder)
      .filter((n) => extensions.some((e) => n.endsWith(e)) && !n.includes('.test.'))
      .sort();
    for (const name of names) hash.update(name).update(readFileSync(new URL(name, folder)));
  }
  for (const pkg of packages) hash.update(pkg);
  version = hash.digest('hex').slice(0, 16);
  return version;
}

/**
 * The version of the package `pkg` that code at `from` imports, read from its package.json where
 * Node looks for the package (not through `require`: web-tree-sitter's exports do not name its
 * package.json, and a failed lookup would leave its version out of `extractorVersion`); null
 * when it is not installed.
 */
export function installedVersion(pkg: string, from: string): string | null {
  for (const folder of createRequire(from).resolve.paths(pkg) ?? []) {
    try {
      const { version } = JSON.parse(readFileSync(join(folder, pkg, 'package.json'), 'utf8')) as { version?: unknown };
      return typeof version === 'string' ? version : null;
    } catch {
      // Not in this folder: the next one up.
    }
  }
  return null;
}
