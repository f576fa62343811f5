#!/usr/bin/env node
// The server test files that `npm run test:pg` runs: those that can behave differently when
// DATABASE_URL names a PostgreSQL server, which is all that `test:pg` changes. A file is chosen when
// one of the files it reaches reads that variable (the token `DATABASE_URL` appears in it): what it
// imports (type-only imports aside), and every file it names by a relative or repository path ending
// in .ts, .mts, .mjs or .js, which is how the tests start scripts and server processes
// (`packages/server/src/main.ts` reads DATABASE_URL through config.ts). build-test-app.ts reads it,
// so every file that reaches `freshDatabase` or `buildTestApp` is chosen; the others (parsers, pure
// rules, git and process helpers) run on the embedded database only, in `npm test`, where they
// would run the same. Choosing too many costs time only. `node scripts/pg-suites.mjs` prints both
// lists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'packages/server');
const READS_DATABASE_URL = /\bDATABASE_URL\b/;
const TYPE_ONLY = /\b(?:import|export)\s+type\s[^;]*?\bfrom\s*['"][^'"]+['"]/gs;
const PATHS = /['"`]([^'"`\s]+\.(?:ts|mts|mjs|js))['"`]/g;

function testFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

/** The files `file` names that exist in the repository (outside node_modules). */
function named(file, text) {
  const out = [];
  for (const [, spec] of text.replace(TYPE_ONLY, '').matchAll(PATHS)) {
    const bases = spec.startsWith('.') ? [dirname(file)] : [ROOT, SERVER];
    for (const base of bases) {
      const path = resolve(base, spec);
      if (!path.includes('/node_modules/') && existsSync(path) && statSync(path).isFile()) out.push(path);
    }
  }
  return out;
}

const reaches = new Map();
/** Whether `file`, or a file it names (transitively), reads DATABASE_URL. */
function readsDatabaseUrl(file, seen = new Set()) {
  if (reaches.has(file)) return reaches.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const answer = READS_DATABASE_URL.test(text) || named(file, text).some((next) => readsDatabaseUrl(next, seen));
  // A cycle's answer may be incomplete while its first file is still open: keep only the final ones.
  if (seen.size === 1 || answer) reaches.set(file, answer);
  return answer;
}

/** The server's test files, relative to the repository: those DATABASE_URL reaches, and the others. */
export function serverSuites() {
  const all = [...testFiles(join(SERVER, 'src')), ...testFiles(join(SERVER, 'test'))].sort();
  const chosen = all.filter((file) => readsDatabaseUrl(file));
  const rel = (file) => relative(ROOT, file);
  return { database: chosen.map(rel), embeddedOnly: all.filter((f) => !chosen.includes(f)).map(rel) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { database, embeddedOnly } = serverSuites();
  console.log(`# ${database.length} files run on PostgreSQL too\n${database.join('\n')}`);
  console.log(`\n# ${embeddedOnly.length} files run on the embedded database only\n${embeddedOnly.join('\n')}`);
}
