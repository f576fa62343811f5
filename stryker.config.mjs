// Mutation testing (`npm run mutation`; slow, so not in CI): StrykerJS with its Vitest runner over
// the server's sign-in, permission and access code and the coverage engine's figure code. Each
// mutant runs only the tests that cover it (perTest), found among the tests that import the file.
// `npm run mutation -- --mutate FILE` narrows it to one file; MUTATION_TEST_DIR=packages/coverage
// makes Vitest look for those tests in one package only (the server's suites are slow to start).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    'packages/server/src/modules/auth/service.ts',
    'packages/server/src/modules/auth/tokens.ts',
    'packages/server/src/plugins/access.ts',
    'packages/api/src/abilities.ts',
    'packages/server/src/modules/reports/service.ts',
    'packages/coverage/src/figures/diff-lines.ts',
    'packages/coverage/src/figures/incremental.ts',
    'packages/coverage/src/merge/merge.ts',
    'packages/coverage/src/merge/lines.ts',
  ],
  ignorePatterns: ['data', 'bench/out', 'e2e/artifacts', 'reports', '.stryker-tmp', 'test-results'],
  concurrency: 1,
  timeoutMS: 60_000,
  thresholds: { high: 90, low: 85, break: null },
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
};
