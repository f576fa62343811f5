#!/usr/bin/env node
// Every package the lock file installs must run on every Node.js the root `engines` field admits, so
// `npm install` on a supported Node prints no EBADENGINE and nothing fails at run time (issue 41).
import { readFileSync } from 'node:fs';
import semver from 'semver';

/** The packages of `lock` whose declared Node range leaves out part of `supported`. */
export function enginesLeftOut(lock, supported) {
  const ranges = supported.split('||').map((range) => range.trim());
  return Object.entries(lock.packages ?? {})
    .filter(([path, entry]) => path !== '' && typeof entry.engines?.node === 'string')
    .filter(([, entry]) => ranges.some((range) => !semver.subset(range, entry.engines.node, { loose: true })))
    .map(([path, entry]) => ({
      name: path.replace(/^.*node_modules\//, ''),
      version: entry.version,
      node: entry.engines.node,
    }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
  const leftOut = enginesLeftOut(lock, root.engines.node);
  for (const p of leftOut)
    console.error(`${p.name}@${p.version} wants node ${p.node}; the project supports ${root.engines.node}`);
  if (leftOut.length > 0) process.exit(1);
}
