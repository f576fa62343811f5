import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';

const WILDCARD = /[*?]/;

/** `**` any number of directories, `*` any run of characters but `/`, `?` one character but `/`. */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*' && pattern[i + 1] === '*') {
      const wholeSegment = (i === 0 || pattern[i - 1] === '/') && (pattern[i + 2] === '/' || i + 2 === pattern.length);
      if (wholeSegment && pattern[i + 2] === '/') {
        source += '(?:[^/]+/)*';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Splits `reports/**\/*.xml` into the directory to walk (`reports`) and the part to match. */
function splitPattern(pattern: string): { base: string; rest: string } {
  const segments = pattern.split('/');
  const firstWild = segments.findIndex((s) => WILDCARD.test(s));
  if (firstWild === -1) return { base: segments.slice(0, -1).join('/') || '.', rest: segments.at(-1) ?? '' };
  return {
    base: segments.slice(0, firstWild).join('/') || (pattern.startsWith('/') ? '/' : '.'),
    rest: segments.slice(firstWild).join('/'),
  };
}

/**
 * Files matching a glob, relative patterns resolved against `cwd`. Walks only below the pattern's
 * fixed prefix, no deeper than the pattern can reach without `**`, and never into `.git` or
 * `node_modules` (coverage reports are not kept there). Sorted, absolute paths.
 */
export async function findFiles(pattern: string, cwd: string): Promise<string[]> {
  const normalised = pattern.replaceAll('\\', '/');
  const { base, rest } = splitPattern(normalised);
  const root = isAbsolute(base) ? base : resolve(cwd, base);
  const matcher = globToRegExp(rest);
  const maxDepth = rest.includes('**') ? Number.POSITIVE_INFINITY : rest.split('/').length;
  const found: string[] = [];
  async function walk(dir: string, relative: string, depth: number): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < maxDepth && entry.name !== '.git' && entry.name !== 'node_modules') {
          await walk(join(dir, entry.name), path, depth + 1);
        }
      } else if (entry.isFile() && matcher.test(path)) found.push(join(dir, entry.name));
    }
  }
  await walk(root, '', 1);
  return found.sort();
}
