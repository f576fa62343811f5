#!/usr/bin/env node
// Enforces who may import whom (STYLE.md): package boundaries (by name and by relative path),
// node:* only in coverage/src/node, web features never importing each other, server modules never
// reaching into another module's repository or tables.
// Usage: node scripts/check-boundaries.mjs [rootDir]   (exit 1 and one line per violation)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const NAMED_IMPORT = /(?:^|\n)\s*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const TABLE = /export\s+const\s+(\w+)\s*=\s*pgTable\s*\(/g;

/** Packages each package may import (by name). */
const ALLOWED_PACKAGES = {
  api: [],
  coverage: [],
  server: ['api', 'coverage'],
  cli: ['api', 'coverage'],
  web: ['api'],
};
/** What a package's tests may import besides: the server's tests drive the real CLI against it. */
const ALLOWED_IN_TESTS = { server: ['cli'] };

/**
 * Each table belongs to the module named like its schema file (`db/schema/teams.ts` → `modules/teams`),
 * except these, kept in another module's schema file.
 */
export const TABLE_OWNERS_WHERE_NAMES_DIFFER = {
  applications: 'applications', // db/schema/settings.ts: access requests, decided by the applications module
  coverageUploads: 'intake', // db/schema/reports.ts: written by the intake, read by the pipeline
  coverageAgents: 'intake', // db/schema/reports.ts: the agents' heart-beats
  uploadBlobs: 'intake', // db/schema/upload-blobs.ts: an upload's bytes kept in the database (ADR 0006)
  classBlobs: 'intake', // db/schema/class-files.ts: the class files agents send, kept in the database (ADR 0006)
  classLists: 'intake', // db/schema/class-files.ts: the class lists recorded for a commit (ADR 0006)
  reportCommitters: 'reports', // db/schema/report-summaries.ts: written in the report's generation transaction
  reportCaseMethods: 'reports', // db/schema/report-summaries.ts: written in the report's generation transaction
  reportRequirements: 'reports', // db/schema/report-summaries.ts: written in the report's generation transaction
  reportCaseSummaries: 'reports', // db/schema/report-summaries.ts: written in the report's generation transaction
  appCaseSummaries: 'reports', // db/schema/report-summaries.ts: written in the report's generation transaction
  requirementAppSummaries: 'reports', // db/schema/report-summaries.ts: written in the report's generation transaction
  appCaseMethodReach: 'reports', // db/schema/report-summaries.ts: kept by the triggers of migration 0026 and the report writer
};

/**
 * Modules that are another module's read side and may read its tables. report-views answers the
 * report list, detail, source and dashboard calls from the reports module's tables (reports,
 * report_details, report_files) with SQL written for 100,000 reports and millions of detail rows
 * (bench/search-reports.ts: keyset pages, prepared reads, no ORM objects); it writes nothing, and a
 * service call per row would undo that. The writes stay with the reports module's repository.
 */
export const READ_SIDES = { 'report-views': ['reports'] };

/** Today's reads of another module's tables, accepted until the server's modules are reshaped (issue 33). */
const BASELINE = 'scripts/boundary-baseline.json';

export const RULES = {
  'package-boundary': 'a package imports a @sextant package it may not depend on',
  'package-relative-path': "a file imports another package's file by relative path (import the package by name)",
  'coverage-node-only': 'coverage imports node:* outside src/node (the core must stay browser-safe)',
  'web-feature-cross-import': 'a web feature imports another feature (compose them in app/routes)',
  'web-shared-imports-feature': 'web components/ or lib/ import features/ or app/',
  'server-foreign-repository': "a server module imports another module's repository (call its service)",
  'server-foreign-table': "a server module imports another module's table from the schema (call its service)",
};

function* sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield path;
  }
}

function importsOf(text) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) found.push(match[1] ?? match[2]);
  return found;
}

/** Table object name → owning module, from the schema files' names (see TABLE_OWNERS_WHERE_NAMES_DIFFER). */
export function tableOwners(treeRoot) {
  const serverSrc = join(treeRoot, 'packages', 'server', 'src');
  const owners = new Map();
  for (const file of sourceFiles(join(serverSrc, 'db', 'schema'))) {
    const module = basename(file, '.ts');
    for (const [, table] of readFileSync(file, 'utf8').matchAll(TABLE)) {
      const owner = TABLE_OWNERS_WHERE_NAMES_DIFFER[table] ?? module;
      if (!existsSync(join(serverSrc, 'modules', owner))) {
        throw new Error(`${relative(treeRoot, file)}: table ${table} has no module folder modules/${owner}`);
      }
      owners.set(table, owner);
    }
  }
  return owners;
}

/** The original names a named import brings in (`users as u` → users). */
function namedImports(text) {
  const found = [];
  for (const [, names, spec] of text.matchAll(NAMED_IMPORT)) {
    for (const name of names.split(',')) {
      const original = name
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (original) found.push({ name: original, spec });
    }
  }
  return found;
}

export function checkTree(treeRoot) {
  const violations = [];
  const path = (file) => relative(treeRoot, file).split(sep).join('/');
  const report = (rule, file, spec, table) =>
    violations.push({ rule, file: path(file), spec, ...(table ? { table } : {}) });
  const packagesDir = join(treeRoot, 'packages');
  const owners = tableOwners(treeRoot);
  for (const pkg of Object.keys(ALLOWED_PACKAGES)) {
    const srcDir = join(packagesDir, pkg, 'src');
    for (const file of sourceFiles(join(packagesDir, pkg))) {
      const inSrc = relative(srcDir, file).split(sep);
      // Tests (*.test.ts, or anything under test/) run under Node only: they may read fixtures from
      // disk, and the server's may drive the CLI (ALLOWED_IN_TESTS).
      const isTest = /\.test\.tsx?$/.test(file) || relative(join(packagesDir, pkg), file).startsWith(`test${sep}`);
      const text = readFileSync(file, 'utf8');
      for (const spec of importsOf(text)) {
        const named = /^@sextant\/([^/]+)/.exec(spec);
        const allowed = [...ALLOWED_PACKAGES[pkg], ...(isTest ? (ALLOWED_IN_TESTS[pkg] ?? []) : [])];
        if (named && named[1] !== pkg && !allowed.includes(named[1])) report('package-boundary', file, spec);
        if (pkg === 'coverage' && spec.startsWith('node:') && inSrc[0] !== 'node' && !isTest) {
          report('coverage-node-only', file, spec);
        }
        if (!spec.startsWith('.')) continue;
        const landsIn = relative(packagesDir, resolve(dirname(file), spec)).split(sep)[0];
        if (landsIn !== pkg && landsIn !== '..' && landsIn in ALLOWED_PACKAGES) {
          report('package-relative-path', file, spec);
        }
        const target = relative(srcDir, resolve(dirname(file), spec)).split(sep);
        if (pkg === 'web') {
          if (inSrc[0] === 'features' && target[0] === 'features' && target[1] !== inSrc[1]) {
            report('web-feature-cross-import', file, spec);
          }
          if (['components', 'lib'].includes(inSrc[0]) && ['features', 'app'].includes(target[0])) {
            report('web-shared-imports-feature', file, spec);
          }
        }
        if (
          pkg === 'server' &&
          inSrc[0] === 'modules' &&
          target[0] === 'modules' &&
          target[1] !== inSrc[1] &&
          /^repository(\.ts)?$/.test(target.at(-1) ?? '')
        ) {
          report('server-foreign-repository', file, spec);
        }
      }
      if (pkg !== 'server' || inSrc[0] !== 'modules' || isTest) continue;
      for (const { name, spec } of namedImports(text)) {
        if (!spec.startsWith('.')) continue;
        const target = relative(srcDir, resolve(dirname(file), spec)).split(sep);
        if (target[0] !== 'db' || target[1] !== 'schema') continue;
        const owner = owners.get(name);
        const readSideOf = READ_SIDES[inSrc[1]] ?? [];
        if (owner && owner !== inSrc[1] && !readSideOf.includes(owner)) {
          report('server-foreign-table', file, spec, name);
        }
      }
    }
  }
  return violations;
}

/** Splits violations into new ones and those the baseline accepts; baseline entries no longer seen are stale. */
export function againstBaseline(violations, baseline) {
  const key = (v) => `${v.file} ${v.table}`;
  const known = new Set(baseline.map(key));
  const seen = new Set();
  const fresh = [];
  for (const v of violations) {
    if (v.rule === 'server-foreign-table' && known.has(key(v))) seen.add(key(v));
    else fresh.push(v);
  }
  return { fresh, accepted: seen.size, stale: baseline.filter((entry) => !seen.has(key(entry))) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The checked tree's own baseline: the lint fixtures have none, so every violation there is new.
  const baselineFile = join(root, BASELINE);
  const entries = existsSync(baselineFile) ? JSON.parse(readFileSync(baselineFile, 'utf8')).entries : [];
  const { fresh, accepted, stale } = againstBaseline(checkTree(root), entries);
  for (const v of fresh) {
    const what = v.table ? `imports table ${v.table} from '${v.spec}'` : `imports '${v.spec}'`;
    console.log(`${v.file}: ${v.rule}: ${what} (${RULES[v.rule]})`);
  }
  for (const s of stale) {
    console.log(`${BASELINE}: ${s.file} no longer imports table ${s.table}: remove the entry`);
  }
  if (fresh.length > 0 || stale.length > 0) process.exit(1);
  console.log(`boundaries: ok (${accepted} known reads of another module's table, in ${BASELINE})`);
}
