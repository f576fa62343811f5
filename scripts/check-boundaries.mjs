#!/usr/bin/env node
// Enforces who may import whom (STYLE.md): package boundaries, node:* only in coverage/src/node,
// web features never importing each other, server modules never reaching into another module's repository.
// Usage: node scripts/check-boundaries.mjs [rootDir]   (exit 1 and one line per violation)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Packages each package may import (by name). */
const ALLOWED_PACKAGES = {
  api: [],
  coverage: [],
  server: ['api', 'coverage'],
  cli: ['api', 'coverage'],
  web: ['api'],
};

export const RULES = {
  'package-boundary': 'a package imports a @sextant package it may not depend on',
  'coverage-node-only': 'coverage imports node:* outside src/node (the core must stay browser-safe)',
  'web-feature-cross-import': 'a web feature imports another feature (compose them in app/routes)',
  'web-shared-imports-feature': 'web components/ or lib/ import features/ or app/',
  'server-foreign-repository': "a server module imports another module's repository (call its service)",
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

export function checkTree(treeRoot) {
  const violations = [];
  const report = (rule, file, spec) =>
    violations.push({ rule, file: relative(treeRoot, file).split(sep).join('/'), spec });
  for (const pkg of Object.keys(ALLOWED_PACKAGES)) {
    const srcDir = join(treeRoot, 'packages', pkg, 'src');
    for (const file of sourceFiles(srcDir)) {
      const inSrc = relative(srcDir, file).split(sep);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const named = /^@sextant\/([^/]+)/.exec(spec);
        if (named && named[1] !== pkg && !ALLOWED_PACKAGES[pkg].includes(named[1])) {
          report('package-boundary', file, spec);
        }
        // Tests run under Node only, so they may read fixtures from disk.
        const isTest = file.endsWith('.test.ts');
        if (pkg === 'coverage' && spec.startsWith('node:') && inSrc[0] !== 'node' && !isTest) {
          report('coverage-node-only', file, spec);
        }
        if (!spec.startsWith('.')) continue;
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
    }
  }
  return violations;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = checkTree(root);
  for (const v of violations) console.log(`${v.file}: ${v.rule}: imports '${v.spec}' (${RULES[v.rule]})`);
  if (violations.length > 0) process.exit(1);
  console.log('boundaries: ok');
}
