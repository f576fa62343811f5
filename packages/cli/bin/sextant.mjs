#!/usr/bin/env node
// `npx sextant`: runs the bundle that `npm install` builds (root `prepare` → scripts/build.mjs --cli).
try {
  await import('../dist/sextant.mjs');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('sextant.mjs')) {
    process.stderr.write('sextant: the CLI is not built; run `node scripts/build.mjs --cli` at the repository root\n');
    process.exitCode = 1;
  } else throw error;
}
