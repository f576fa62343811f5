import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { indexPaths, type PathIndex } from '../paths/map.ts';

/**
 * The package folders of a repository (repository-relative, sorted): npm/yarn `workspaces` and
 * pnpm-workspace.yaml globs matched against the folders holding a package.json, Nx's
 * `project.json` folders, Maven `<module>`s (nested ones too), Gradle `include`s of
 * settings.gradle(.kts), and Go modules (go.work's `use`, else every go.mod below the top). Read
 * from the repository's file list (its `indexPaths`, built for placing paths anyway: files by
 * name, so no extra pass) and a few manifests: the tree is never walked.
 */
export async function workspaceFolders(
  top: string,
  repoFiles: readonly string[] | PathIndex,
  /** How a manifest is read (a bare mirror's reads a commit's blob); by default from `top` on disk. */
  readText: (path: string) => Promise<string | null> = (path) => readFile(join(top, path), 'utf8').catch(() => null),
): Promise<string[]> {
  const { files, byName } = 'byName' in repoFiles ? repoFiles : indexPaths(repoFiles);
  const read = (path: string) => (files.has(path) ? readText(path) : null);
  const foldersOf = (name: string) =>
    (byName.get(name) ?? []).filter((file) => file !== name).map((file) => file.slice(0, -name.length - 1));
  const found = new Set<string>();

  const globs = [...npmWorkspaces(await read('package.json')), ...pnpmWorkspaces(await read('pnpm-workspace.yaml'))];
  if (globs.length > 0) {
    const patterns = globs.map(globPattern);
    for (const folder of foldersOf('package.json')) if (patterns.some((p) => p.test(folder))) found.add(folder);
  }
  for (const folder of foldersOf('project.json')) found.add(folder);
  for (const folder of await mavenModules('', read)) found.add(folder);
  const settings = (await read('settings.gradle')) ?? (await read('settings.gradle.kts'));
  for (const folder of gradleIncludes(settings)) found.add(folder);
  const goWork = await read('go.work');
  for (const folder of goWork === null ? foldersOf('go.mod') : goWorkUses(goWork)) found.add(folder);
  return [...found].filter((folder) => folder !== '').sort();
}

function npmWorkspaces(text: string | null): string[] {
  if (text === null) return [];
  try {
    const workspaces = (JSON.parse(text) as { workspaces?: unknown }).workspaces;
    const list = Array.isArray(workspaces) ? workspaces : (workspaces as { packages?: unknown } | undefined)?.packages;
    return Array.isArray(list) ? list.filter((g): g is string => typeof g === 'string') : [];
  } catch {
    return [];
  }
}

/** The `packages:` list of pnpm-workspace.yaml (`- 'apps/*'` lines); `!` exclusions are left out. */
function pnpmWorkspaces(text: string | null): string[] {
  if (text === null) return [];
  const out: string[] = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inPackages = /^packages\s*:/.test(line);
    const item = inPackages ? /^\s+-\s*['"]?([^'"#\s]+)['"]?/.exec(line) : null;
    if (item?.[1] && !item[1].startsWith('!')) out.push(item[1]);
  }
  return out;
}

/** `packages/*` → one folder level, `**` any number; a leading `./` and trailing `/` are dropped. */
function globPattern(glob: string): RegExp {
  const clean = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  const body = clean
    .split('/')
    .map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')))
    .join('/');
  return new RegExp(`^${body}$`);
}

async function mavenModules(
  folder: string,
  read: (path: string) => Promise<string | null> | null,
  depth = 0,
): Promise<string[]> {
  const pom = await read(folder === '' ? 'pom.xml' : `${folder}/pom.xml`);
  if (pom === null || depth > 8) return [];
  const out: string[] = [];
  for (const [, name] of pom.matchAll(/<module>\s*([^<\s]+)\s*<\/module>/g)) {
    const module = [folder, (name as string).replace(/^\.\//, '').replace(/\/+$/, '')].filter(Boolean).join('/');
    if (module.split('/').includes('..')) continue;
    out.push(module, ...(await mavenModules(module, read, depth + 1)));
  }
  return out;
}

/** `include 'app', ':lib:core'` / `include("app")` → `app`, `lib/core`. */
function gradleIncludes(text: string | null): string[] {
  if (text === null) return [];
  const out: string[] = [];
  for (const [, args] of text.matchAll(/^\s*include\b\s*\(?([^\n)]*)/gm)) {
    for (const [, name] of (args as string).matchAll(/['"]:?([^'"]+)['"]/g))
      out.push((name as string).replaceAll(':', '/'));
  }
  return out;
}

/** go.work's `use ./a` and `use ( ./a ./b )`. */
function goWorkUses(text: string): string[] {
  const out: string[] = [];
  for (const [, block, single] of text.matchAll(/^use\s*(?:\(([^)]*)\)|(\S+))/gm)) {
    const entries =
      block === undefined ? [single as string] : block.split('\n').map((l) => l.replace(/\/\/.*/, '').trim());
    for (const entry of entries) {
      const folder = entry.replace(/^\.\/?/, '').replace(/\/+$/, '');
      if (entry !== '' && !folder.split('/').includes('..')) out.push(folder);
    }
  }
  return out;
}
