import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { uploadsDir } from '../../src/lib/data-paths.ts';
import { freshDatabase, testAppOptions } from '../support/build-test-app.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'sx-leftovers-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('partial uploads left by a crash (issue 32, finding 9)', () => {
  it('are removed when the server starts; stored uploads are kept', async () => {
    const appDir = uploadsDir(dataDir, randomUUID());
    mkdirSync(appDir, { recursive: true });
    const partial = `.incoming-${randomUUID()}`;
    const stored = `${randomUUID()}.lcov.gz`;
    writeFileSync(join(appDir, partial), 'TN:\nSF:src/a.c\nDA:1,');
    writeFileSync(join(appDir, stored), 'a stored upload');
    expect(readdirSync(appDir).sort()).toEqual([partial, stored].sort());

    const database = await freshDatabase();
    const app = await buildApp(
      testAppOptions({
        db: database.db,
        runJobs: false,
        config: { jwtSecret: 'test-secret-that-is-long-enough-for-hs256!!', accessTokenTtl: 900, dataDir },
      }),
    );
    try {
      expect(readdirSync(appDir)).toEqual([stored]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
