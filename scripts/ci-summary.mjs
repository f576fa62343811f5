#!/usr/bin/env node
// Adds up Vitest's JSON reports of the CI stages and prints the plain closing line CI reads.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(`${file.split('/').pop()}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
console.log(`ci: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
