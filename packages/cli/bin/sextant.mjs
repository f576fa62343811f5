#!/usr/bin/env node
// `npx sextant`: runs the bundle that `npm install` builds (root `prepare` → scripts/build.mjs --cli).
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/sextant.mjs', import.meta.url);
if (existsSync(bundle)) await import(bundle.href);
else {
  process.stderr.write('sextant: the CLI is not built; run `node scripts/build.mjs --cli` at the repository root\n');
  process.exitCode = 1;
}
