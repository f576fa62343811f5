import { mergeCoverage } from '../merge/merge.ts';
import type { Coverage, FileCoverage } from '../model/coverage.ts';
import { withPath } from '../model/line-buffer.ts';

export type MapPathsOptions = {
  /** Extra roots to strip from absolute report paths (Cobertura <sources> are tried too). */
  sourceRoots?: string[];
  /**
   * The repository folder the report was made in (a monorepo package): relative report paths
   * name files under it before anything else. Null or '' is the top.
   */
  baseDir?: string | null;
  /**
   * The repository folder the report file sits in (`module-a/target/site/jacoco`): relative paths
   * are looked up under it and its parents before `baseDir`, and of several files with the path's
   * suffix the one under its nearest such folder is taken (a module's classes stay in its module).
   */
  reportDir?: string | null;
};

/** The repository's files, indexed once for any number of reports. */
export type PathIndex = { files: Set<string>; byName: Map<string, string[]> };

export type AmbiguousPath = { path: string; candidates: string[] };

export type MappedCoverage = {
  coverage: Coverage;
  unmappedFiles: string[];
  /** Report paths whose suffix matched several repository files; left unmapped. */
  ambiguousFiles: AmbiguousPath[];
};

/** Anything normalisePath would change or refuse: backslashes, empty, `.` and `..` segments. */
const NOT_NORMAL = /\\|\/\/|^\/|\/$|(?:^|\/)\.\.?(?:\/|$)/;

/** `C:\a\b` → `C:/a/b`, `./a` → `a`, `a//b` → `a/b`; `..` segments make the path unusable (null). */
export function normalisePath(raw: string): string | null {
  if (raw !== '' && !NOT_NORMAL.test(raw)) return raw;
  const slashed = raw.replaceAll('\\', '/');
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  const path = parts.join('/');
  return path === '' ? null : path;
}

/** `/a`, `C:\a`, `C:/a`, `\\server\a`: an absolute report path never names a file under `baseDir`. */
const isAbsolute = (raw: string) => /^(?:[/\\]|[A-Za-z]:[/\\])/.test(raw);

/** Strips a root (already normalised, no leading slash) from a normalised absolute path. */
function stripRoot(path: string, root: string): string | null {
  if (root === '') return path;
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null;
}

/**
 * Resolves report paths to repository-relative paths from the repository's file list (or its
 * `indexPaths`): a relative path under the report's folder and its parents, then under `baseDir`,
 * then an exact match; then, for absolute paths, the path
 * relative to one of the source roots; then the unique repository file ending with the path
 * (JaCoCo's `pkg/Foo.java` → `module/src/main/java/pkg/Foo.java`; of several, the only one under
 * the nearest of those folders), trying shorter suffixes of absolute paths. Paths with `..` never map (nothing
 * outside the repository); several candidates are reported as ambiguous. Files that map to the
 * same repository path merge.
 */
export function indexPaths(repoFiles: readonly string[]): PathIndex {
  const files = new Set<string>();
  const byName = new Map<string, string[]>();
  for (const raw of repoFiles) {
    const file = normalisePath(raw);
    if (file === null) continue;
    files.add(file);
    const name = file.slice(file.lastIndexOf('/') + 1);
    const list = byName.get(name);
    if (list) list.push(file);
    else byName.set(name, [file]);
  }
  return { files, byName };
}

/** `a/b/c` → `['a/b/c', 'a/b', 'a']`: a folder and its parents below the top. */
function folderAndParents(folder: string | null): string[] {
  const out: string[] = [];
  for (let at = folder; at; at = at.includes('/') ? at.slice(0, at.lastIndexOf('/')) : null) out.push(at);
  return out;
}

export function mapPaths(
  coverage: Coverage,
  repoFiles: readonly string[] | PathIndex,
  options: MapPathsOptions = {},
): MappedCoverage {
  const { files: repo, byName: bySuffix } = 'byName' in repoFiles ? repoFiles : indexPaths(repoFiles);
  const roots = [...(options.sourceRoots ?? []), ...(coverage.sourceRoots ?? [])]
    .map((root) => normalisePath(root))
    .filter((root): root is string => root !== null);

  const baseDir = options.baseDir ? normalisePath(options.baseDir) : null;
  // Where relative paths are looked for, nearest first: the report's folder and its parents, then baseDir.
  const places = folderAndParents(options.reportDir ? normalisePath(options.reportDir) : null);
  if (baseDir !== null && !places.includes(baseDir)) places.push(baseDir);
  const unmapped: string[] = [];
  const ambiguous: AmbiguousPath[] = [];
  const mapped: FileCoverage[] = [];

  for (const file of coverage.files) {
    const result = resolve(file.path);
    if (typeof result === 'string') mapped.push(result === file.path ? file : withPath(file, result));
    else {
      if (result) ambiguous.push({ path: file.path, candidates: result });
      unmapped.push(file.path);
    }
  }

  function resolve(raw: string): string | string[] | null {
    const path = normalisePath(raw);
    if (path === null) return null;
    if (!isAbsolute(raw)) {
      for (const place of places) if (repo.has(`${place}/${path}`)) return `${place}/${path}`;
    }
    if (repo.has(path)) return path;
    for (const root of roots) {
      const relative = stripRoot(path, root);
      if (relative !== null && repo.has(relative)) return relative;
      if (repo.has(`${root}/${path}`)) return `${root}/${path}`;
    }
    const name = path.slice(path.lastIndexOf('/') + 1);
    const sameName = bySuffix.get(name) ?? [];
    // The longest suffix of the report path that some repository files end with decides.
    const segments = path.split('/');
    for (let start = 0; start < segments.length; start++) {
      const suffix = segments.slice(start).join('/');
      const matches = sameName.filter((file) => file === suffix || file.endsWith(`/${suffix}`));
      if (matches.length === 1) return matches[0] as string;
      if (matches.length > 1) {
        // Of several, the one in the report's nearest folder (a module of a multi-module build).
        for (const place of places) {
          const own = matches.filter((file) => file.startsWith(`${place}/`));
          if (own.length === 1) return own[0] as string;
        }
        return matches.sort();
      }
    }
    return null;
  }

  const seen = new Map<string, number>();
  for (const file of mapped) seen.set(file.path, (seen.get(file.path) ?? 0) + 1);
  // The report's counters stay its own, and so do their bounds (a merge's ranges).
  const own = { counters: coverage.counters, ...(coverage.bounds && { bounds: coverage.bounds }) };
  const base: Coverage = { format: coverage.format, files: mapped, ...own };
  const needsMerge = [...seen.values()].some((n) => n > 1);
  const result: Coverage = needsMerge ? { ...mergeCoverage([base]), bounds: undefined, ...own } : base;
  return { coverage: result, unmappedFiles: unmapped, ambiguousFiles: ambiguous };
}
