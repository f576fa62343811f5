import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Suites of plain functions over values (the contract, the web app's models, the engine's parsers,
 * merges and figures): no database, server, child process or module state that a test changes.
 * They run with `isolate: false`, several files in one worker that imports their modules once,
 * instead of a fresh worker importing them again for each file.
 */
const SHARED_MODULES = [
  'packages/api/src/**/*.test.ts',
  'packages/web/src/**/*.test.ts',
  'packages/coverage/src/**/*.test.ts',
];
/** The engine's Node machinery (git and other child processes, worker threads, caches on disk). */
const ENGINE_NODE = 'packages/coverage/src/node/**';

// `npm test`: every package's unit and integration tests on the embedded database.
// Set DATABASE_URL to run the server suites against a real PostgreSQL server instead.
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    // Two files at a time even on two cores (Vitest's default leaves one core to itself): most
    // files wait on git, PGlite or child processes, so the second core is rarely idle. On the
    // 2-core CI machine the suite took 316 s against 548 s one file at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 120_000,
    // The CLI keeps method extractions between runs: tests keep theirs away from the user's cache.
    env: { SEXTANT_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sextant-test-cache-')) },
    projects: [
      {
        extends: true,
        test: { name: 'shared-modules', include: SHARED_MODULES, exclude: [ENGINE_NODE], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          // SHARED_MODULES but the engine's node/.
          exclude: [
            'packages/api/src/**',
            'packages/web/src/**',
            'packages/coverage/src/*.test.ts',
            'packages/coverage/src/!(node)/**',
          ],
        },
      },
    ],
  },
});
