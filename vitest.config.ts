import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm test`: every package's unit and integration tests on the embedded database.
// Set DATABASE_URL to run the server suites against a real PostgreSQL server instead.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    // Two files at a time even on two cores (Vitest's default leaves one core to itself): most
    // files wait on git, PGlite or child processes, so the second core is rarely idle. On the
    // 2-core CI machine the suite took 316 s against 548 s one file at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 120_000,
    // The CLI keeps method extractions between runs: tests keep theirs away from the user's cache.
    env: { SEXTANT_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sextant-test-cache-')) },
  },
});
