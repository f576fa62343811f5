import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm test`: every package's unit and integration tests on the embedded database.
// Set DATABASE_URL to run the server suites against a real PostgreSQL server instead.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The CLI keeps method extractions between runs: tests keep theirs away from the user's cache.
    env: { SEXTANT_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sextant-test-cache-')) },
  },
});
