#!/usr/bin/env node
// `npm run mutation [-- FILE... --STRYKER-FLAG...]`: StrykerJS over each file of TARGETS (or the named
// ones), one file at a time with only the test files that guard it, then the score per file. Reports
// (HTML, JSON) go to reports/mutation/. `--incremental` re-tests only the mutants whose file or tests
// changed since the last run; it reused stale survivals of static mutants (module-level code) once
// new tests covered them, so the scores reported come from full runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const S = 'packages/server';
const C = 'packages/coverage';
// service.ts is guarded by service.test.ts alone: it calls AuthService on a real database (no app
// built, nothing called in a hook), so each mutant runs only the few tests that reach it. The API
// tests of sign-in (auth.test.ts, auth-service.test.ts, sessions.test.ts, sign-in-limits.test.ts,
// test/mutation-guards/refresh-tokens.test.ts) build the app in beforeAll, which made every login
// mutant static: all five files again for each mutant, a minute or more apiece on a busy machine.
// With DATABASE_URL (a PostgreSQL server) each run's database is a copy of a migrated template.
const AUTH_SERVICE_TESTS = [`${S}/src/modules/auth/service.test.ts`];
/** One app for all its tests: a mutant of a route's registration runs them all (Stryker: static). */
const AUTH_ROUTE_TESTS = [`${S}/src/modules/auth/auth-routes.test.ts`];

/**
 * The merge's properties (JaCoCo runs simulated instruction by instruction) and branch identities,
 * the comparison with JaCoCo's and `lcov -a`'s own merges (each test merges itself: a merge in
 * beforeAll makes every mutant it reaches static, run with all tests), and small worked cases.
 */
const MERGE_TESTS = [
  `${C}/test/conformance/merge.test.ts`,
  `${C}/src/merge/merge-conformance.test.ts`,
  `${C}/src/merge/merge.test.ts`,
  `${C}/src/merge/merge-cases.test.ts`,
  `${C}/src/merge/merge-guards.test.ts`,
  `${C}/src/merge/merge-jacoco.property.test.ts`,
  `${C}/src/formats/json-branches.test.ts`,
];

/** Each mutated file with the tests that guard it (a test file that only passes by is left out: slow). */
export const TARGETS = {
  [`${S}/src/modules/auth/service.ts`]: AUTH_SERVICE_TESTS,
  [`${S}/src/modules/auth/sign-in-limits.ts`]: [`${S}/src/modules/auth/sign-in-limits-rules.test.ts`],
  [`${S}/src/modules/auth/sessions.ts`]: [`${S}/src/modules/auth/auth-rules.test.ts`],
  [`${S}/src/modules/auth/password-resets.ts`]: [`${S}/src/modules/auth/auth-rules.test.ts`],
  [`${S}/src/modules/auth/throttle.ts`]: [`${S}/src/modules/auth/auth-rules.test.ts`],
  [`${S}/src/modules/auth/principals.ts`]: [`${S}/src/modules/auth/principals.test.ts`],
  // The auth module's SQL, through the services that use it.
  [`${S}/src/modules/auth/repository.ts`]: [
    `${S}/src/modules/auth/service.test.ts`,
    `${S}/src/modules/auth/sign-in-limits-rules.test.ts`,
    `${S}/src/modules/auth/auth-rules.test.ts`,
    `${S}/src/modules/auth/principals.test.ts`,
  ],
  // The routes of sign-in, refresh, sign-out, the own sessions and reset links, called as a client does.
  [`${S}/src/modules/auth/routes.ts`]: AUTH_ROUTE_TESTS,
  [`${S}/src/modules/auth/session-routes.ts`]: AUTH_ROUTE_TESTS,
  [`${S}/src/modules/users/reset-routes.ts`]: AUTH_ROUTE_TESTS,
  [`${S}/src/modules/auth/tokens.ts`]: [`${S}/src/modules/auth/tokens.test.ts`],
  [`${S}/src/plugins/access.ts`]: [`${S}/test/access-plugin.test.ts`],
  [`${S}/src/modules/roles/grants.ts`]: [`${S}/src/modules/roles/grants.test.ts`],
  'packages/api/src/abilities.ts': ['packages/api/src/abilities.test.ts'],
  [`${C}/src/figures/diff-lines.ts`]: [`${C}/src/figures/diff-lines.test.ts`],
  [`${C}/src/figures/incremental.ts`]: [
    `${C}/src/figures/incremental.test.ts`,
    `${C}/src/figures/incremental-cases.test.ts`,
  ],
  [`${C}/src/merge/merge.ts`]: MERGE_TESTS,
  [`${C}/src/merge/lines.ts`]: MERGE_TESTS,
};

const nameOf = (file) => basename(file, '.ts') + (file.includes('/merge/') ? '-merge' : '');

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));

function run(file) {
  const tests = TARGETS[file];
  if (!tests) throw new Error(`${file} is not among the mutation targets (scripts/mutation.mjs)`);
  const missing = tests.filter((t) => !existsSync(t));
  if (missing.length) throw new Error(`missing test files for ${file}: ${missing.join(', ')}`);
  const env = { ...process.env, MUTATION_TESTS: tests.join(','), MUTATION_NAME: nameOf(file) };
  const done = spawnSync('npx', ['stryker', 'run', '--mutate', file, ...flags], { stdio: 'inherit', env });
  if (done.status !== 0) throw new Error(`stryker failed on ${file}`);
}

/** Stryker's score: detected (killed, timed out) over valid mutants (those and survived, not covered). */
function score(file) {
  const path = `reports/mutation/${nameOf(file)}.json`;
  // `--dryRunOnly` (does the initial run pass, and how long does it take?) writes no report.
  if (flags.includes('--dryRunOnly')) return `| ${file} | dry run only | | | |`;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const m of report.files[file]?.mutants ?? []) if (m.status in count) count[m.status]++;
  const detected = count.Killed + count.Timeout;
  const valid = detected + count.Survived + count.NoCoverage;
  const pct = valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)} %`;
  return `| ${file} | ${pct} | ${detected} | ${count.Survived} | ${count.NoCoverage} |`;
}

const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = named.length ? named : Object.keys(TARGETS);
for (const file of files) run(file);
console.log('\n| file | score | killed | survived | no coverage |\n|---|---|---|---|---|');
for (const file of files) console.log(score(file));
