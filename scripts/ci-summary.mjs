#!/usr/bin/env node
// Adds up Vitest's JSON reports of the CI stages and prints the plain closing line CI reads, with the
// skipped tests of each file (a suite skips for want of a tool or service only where CI allows it).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // A file that fails to load (a missing tool or service under CI=true) has no failed test: count it.
  const brokenFiles = report.testResults.filter(
    (r) => r.status === 'failed' && !r.assertionResults.some((a) => a.status === 'failed'),
  );
  const stageSkipped = report.numPendingTests + report.numTodoTests;
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles.length;
  skipped += stageSkipped;
  console.log(
    `${file.split('/').pop()}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${stageSkipped} skipped` +
      (brokenFiles.length > 0 ? `, ${brokenFiles.length} files failed to run` : ''),
  );
  for (const result of report.testResults) {
    const name = relative(process.cwd(), result.name);
    const skips = result.assertionResults.filter((a) => ['skipped', 'pending', 'todo'].includes(a.status)).length;
    if (skips > 0) console.log(`  ${skips} skipped in ${name}`);
    if (brokenFiles.includes(result)) console.log(`  failed to run: ${name}: ${(result.message ?? '').split('\n')[0]}`);
  }
}
console.log(`ci: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
