// Mutation testing (`npm run mutation`; slow, so not in CI): StrykerJS with its Vitest runner over
// the server's sign-in, permission and access code and the coverage engine's figure code.
// scripts/mutation.mjs runs Stryker once per file with only the tests that guard that file
// (MUTATION_TESTS, read by vitest.mutation.config.ts); each mutant then runs only the tests that
// cover it (perTest). Run by hand (`npx stryker run`), Vitest picks the tests that import the file.
const tests = process.env.MUTATION_TESTS;
const name = process.env.MUTATION_NAME ?? 'all';
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: !tests },
  coverageAnalysis: 'perTest',
  mutate: [
    'packages/server/src/modules/auth/service.ts',
    'packages/server/src/modules/auth/tokens.ts',
    'packages/server/src/modules/auth/sign-in-limits.ts',
    'packages/server/src/modules/auth/sessions.ts',
    'packages/server/src/modules/auth/password-resets.ts',
    'packages/server/src/modules/auth/throttle.ts',
    'packages/server/src/modules/auth/principals.ts',
    'packages/server/src/modules/auth/repository.ts',
    'packages/server/src/modules/auth/routes.ts',
    'packages/server/src/modules/auth/session-routes.ts',
    'packages/server/src/modules/users/reset-routes.ts',
    'packages/server/src/plugins/access.ts',
    'packages/api/src/abilities.ts',
    'packages/server/src/modules/roles/grants.ts',
    'packages/coverage/src/figures/diff-lines.ts',
    'packages/coverage/src/figures/incremental.ts',
    'packages/coverage/src/merge/merge.ts',
    'packages/coverage/src/merge/lines.ts',
  ],
  // Anchored at the root (gitignore syntax): a bare `reports` also dropped the server's
  // src/modules/reports from the sandbox, so no server test could load and the auth targets never ran.
  ignorePatterns: ['/data', '/bench/out', '/e2e/artifacts', '/reports', '/.stryker-tmp', '/test-results'],
  concurrency: 1,
  timeoutMS: 60_000,
  // The auth targets' initial run builds the app on PGlite in five test files: over Stryker's default
  // five minutes on a shared machine (01:26 UTC, 2026-11-29), so the run ended before any mutant.
  dryRunTimeoutMinutes: 30,
  // With --incremental, a re-run tests again only the mutants whose file or covering tests changed.
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  thresholds: { high: 90, low: 85, break: null },
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
};
