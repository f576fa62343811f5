import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// `npm run mutation`'s Vitest: the whole suite's settings, with MUTATION_TEST_DIR (a package folder)
// narrowing the test files Stryker may pick the ones related to a mutated file from.
const only = process.env.MUTATION_TEST_DIR;
export default only
  ? defineConfig({
      ...base,
      test: { ...base.test, include: [`${only}/src/**/*.test.ts`, `${only}/test/**/*.test.ts`] },
    })
  : base;
