import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The READMEs and the code agree on the environment variables (issue 40: a documented variable no
 * code read, others read but undocumented). Docs: README.md and each package's README. Code: every
 * package's non-test sources, the CLI's bin, the web's Vite config, scripts/ and the browser tests'
 * support. The bench scripts' knobs are bench/README.md's business and are left out on both sides.
 */
const root = new URL('../../../', import.meta.url).pathname;

/** Our own variables' names, as the READMEs write them. */
const OURS = /\b(SEXTANT_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL|REDIS_URL|PG[A-Z_]*[A-Z]|CHROMIUM_PATH)\b/g;

/** Read by the code but other programs' conventions, not ours to document. */
const CONVENTIONS = new Set([
  'PATH', // the command search path
  'CI', // set by CI services; the tests fail rather than skip under CI=true (README, Tests)
  'NO_COLOR', // no-color.org; the CLI README names it all the same
  'XDG_CACHE_HOME', // the XDG base directories: where SEXTANT_CACHE_DIR defaults to
  'XDG_CONFIG_HOME', // git's own, part of the changes cache's fingerprint
]);

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, keep));
    else if (keep(path)) found.push(path);
  }
  return found;
}

const packages = readdirSync(join(root, 'packages'));
const docs = ['README.md', ...packages.map((p) => `packages/${p}/README.md`)]
  .filter((path) => statSync(join(root, path), { throwIfNoEntry: false }))
  .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
const source = (path: string) => /\.(ts|tsx|mts|mjs|js)$/.test(path) && !/\.test\.tsx?$/.test(path);
const code = [
  ...packages.flatMap((p) => filesUnder(join(root, 'packages', p, 'src'), source)),
  ...filesUnder(join(root, 'packages/cli/bin'), source),
  join(root, 'packages/web/vite.config.ts'),
  ...filesUnder(join(root, 'scripts'), source),
  ...filesUnder(join(root, 'e2e/support'), source),
].map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

/** Each variable the code reads, with the files that read it. */
function variablesRead(): Map<string, string[]> {
  const read = new Map<string, string[]>();
  const add = (name: string, path: string) => read.set(name, [...new Set([...(read.get(name) ?? []), path])]);
  for (const { path, text } of code) {
    // process.env.X, env.X, env?.X, env['X']
    for (const m of text.matchAll(/\benv(?:\?\.|\.)\s*([A-Z][A-Z0-9_]*)\b|\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g)) {
      add((m[1] ?? m[2]) as string, path);
    }
    // Our names passed around as strings (the compiled modules' "left out by" switches).
    for (const m of text.matchAll(/['"](SEXTANT_[A-Z0-9_]+)['"]/g)) add(m[1] as string, path);
    // The server's configuration: the keys of the schema the environment is parsed with.
    const schema = /const EnvSchema = z\.object\(\{([\s\S]*?)\n\}\)/.exec(text)?.[1];
    for (const m of schema?.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm) ?? []) add(m[1] as string, path);
  }
  return read;
}

/** Each of our variables the READMEs name, with the READMEs naming it. */
function variablesDocumented(): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const { path, text } of docs) {
    for (const m of text.matchAll(OURS)) {
      named.set(m[1] as string, [...new Set([...(named.get(m[1] as string) ?? []), path])]);
    }
    // The configuration table's first column holds the others (PORT, HOST).
    for (const m of text.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)) {
      named.set(m[1] as string, [...new Set([...(named.get(m[1] as string) ?? []), path])]);
    }
  }
  return named;
}

describe('environment variables: the READMEs and the code agree', () => {
  const read = variablesRead();
  const documented = variablesDocumented();

  it('finds the variables it should (the scan itself works)', () => {
    for (const name of ['PORT', 'DATABASE_URL', 'SEXTANT_WORKERS', 'SEXTANT_JS_TOKENS', 'PG_SERVER_URL']) {
      expect(read.has(name), `${name} read`).toBe(true);
      expect(documented.has(name), `${name} documented`).toBe(true);
    }
  });

  it('reads every variable a README names', () => {
    const unread = [...documented].filter(([name]) => !read.has(name)).map(([name, where]) => `${name} (${where})`);
    expect(unread).toEqual([]);
  });

  it('documents every variable the code reads', () => {
    const undocumented = [...read]
      .filter(([name]) => !CONVENTIONS.has(name) && !documented.has(name))
      .map(([name, where]) => `${name} (${where})`);
    expect(undocumented).toEqual([]);
  });
});
