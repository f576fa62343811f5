import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// `npm run mutation`'s Vitest: the whole suite's settings, narrowed to the test files that guard the
// mutated file. scripts/mutation.mjs names them in MUTATION_TESTS (comma-separated paths);
// MUTATION_TEST_DIR (a package folder) instead takes every test of one package.
const files = process.env.MUTATION_TESTS?.split(',').filter(Boolean);
const only = process.env.MUTATION_TEST_DIR;
const include = files?.length ? files : only ? [`${only}/src/**/*.test.ts`, `${only}/test/**/*.test.ts`] : null;
// One project of the narrowed files (the whole suite's projects would each bring their own include back).
export default include
  ? defineConfig({ ...base, test: { ...base.test, projects: undefined, include, maxWorkers: 1 } })
  : base;
