import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FileMethods } from '../figures/incremental.ts';
import type { SourceMethod } from '../methods/types.ts';

/**
 * Method extractions kept on disk between runs, keyed by the git object ids of the two texts, the
 * changes and the extractor itself (its code and its grammars), so an entry can only be read by
 * the code that would compute it again: repeated runs over the same commits skip tree-sitter.
 * Best effort: an unreadable or unwritable entry is a miss, never an error.
 */
export class MethodCache {
  private constructor(private readonly dir: string) {}

  /**
   * The cache under `root`, dropping entries of other extractor versions and, once a day, the
   * oldest entries beyond `maxEntries` (down to 80% of it).
   */
  static async open(root: string, maxEntries = DEFAULT_MAX_ENTRIES): Promise<MethodCache> {
    const version = await extractorVersion();
    const dir = join(root, `methods-${version}`);
    try {
      for (const entry of await readdir(root)) {
        if (entry.startsWith('methods-') && entry !== `methods-${version}`)
          await rm(join(root, entry), { recursive: true, force: true });
      }
    } catch {
      // No cache folder yet.
    }
    await pruneDaily(dir, maxEntries).catch(() => undefined);
    return new MethodCache(dir);
  }

  /** The key of one file's extraction; null when a text has no object id (nothing to key on). */
  static keyOf(extractionKey: string, headOid: string | null, baseOid: string | null, hasBase: boolean): string | null {
    if (headOid === null || (hasBase && baseOid === null)) return null;
    return createHash('sha1')
      .update(`${extractionKey}\u0000${headOid}\u0000${baseOid ?? ''}`)
      .digest('hex');
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<FileMethods | null> {
    try {
      const value = JSON.parse(await readFile(this.pathOf(key), 'utf8')) as FileMethods;
      return isFileMethods(value) ? value : null;
    } catch {
      return null;
    }
  }

  async set(key: string, methods: FileMethods): Promise<void> {
    const path = this.pathOf(key);
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(temporary, JSON.stringify(methods));
      await rename(temporary, path);
    } catch {
      await rm(temporary, { force: true }).catch(() => undefined);
    }
  }
}

/** A few KB each: the default keeps the cache to tens of MB. */
export const DEFAULT_MAX_ENTRIES = 50_000;
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

/** Removes the oldest entries (by write time) beyond `maxEntries`, at most once a day (a marker file's time). */
async function pruneDaily(dir: string, maxEntries: number): Promise<void> {
  const marker = join(dir, 'pruned');
  const last = await stat(marker).catch(() => null);
  if (last && Date.now() - last.mtimeMs < PRUNE_EVERY_MS) return;
  const entries: { path: string; written: number }[] = [];
  for (const bucket of await readdir(dir).catch(() => [])) {
    if (bucket.length !== 2) continue;
    for (const name of await readdir(join(dir, bucket)).catch(() => [])) {
      const path = join(dir, bucket, name);
      const written = (await stat(path).catch(() => null))?.mtimeMs;
      if (written !== undefined) entries.push({ path, written });
    }
  }
  if (entries.length > maxEntries) {
    entries.sort((a, b) => a.written - b.written);
    const excess = entries.length - Math.floor(maxEntries * 0.8);
    for (const entry of entries.slice(0, excess)) await rm(entry.path, { force: true });
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

let version: Promise<string> | null = null;

/**
 * A digest of what decides an extraction: the extractor's code (the built CLI's files, else the
 * TypeScript sources) and the tree-sitter runtime and grammar packages.
 */
function extractorVersion(): Promise<string> {
  version ??= (async () => {
    const hash = createHash('sha1');
    const here = import.meta.url;
    const [folders, extension] = here.endsWith('.ts')
      ? [['../methods/', '../figures/', './'], '.ts']
      : [['./'], '.mjs'];
    for (const folder of folders.map((dir) => new URL(dir, here))) {
      const names = (await readdir(folder)).filter((n) => n.endsWith(extension) && !n.includes('.test.')).sort();
      for (const name of names) hash.update(name).update(await readFile(new URL(name, folder)));
    }
    const require = createRequire(here);
    for (const pkg of ['web-tree-sitter', '@vscode/tree-sitter-wasm', 'tree-sitter-wasms']) {
      try {
        hash.update(`${pkg}@${(require(`${pkg}/package.json`) as { version: string }).version}`);
      } catch {
        hash.update(`${pkg}@?`);
      }
    }
    return hash.digest('hex').slice(0, 16);
  })();
  return version;
}
