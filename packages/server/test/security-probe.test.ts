import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { seed } from '../src/db/seed.ts';
import { ADMIN_PASSWORD, freshDatabase, testAppOptions } from './support/build-test-app.ts';

const PROBE = join(import.meta.dirname, '../../../scripts/security-probe.mjs');
const JWT_SECRET = 'probe-test-secret-that-is-long-enough-for-hs256';

function runProbe(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PROBE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// `npm run security:probe` (issue 32) against a server this test starts: one line per finding, each
// passing on this code (on the code before issue 32, every one of them failed).
describe('npm run security:probe', () => {
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;
  let server: string;

  beforeAll(async () => {
    database = await freshDatabase();
    await seed(database.db, ADMIN_PASSWORD);
    dataDir = mkdtempSync(join(tmpdir(), 'sx-probe-'));
    writeFileSync(join(dataDir, 'jwt-secret'), JWT_SECRET);
    app = await buildApp(
      testAppOptions({
        db: database.db,
        config: {
          jwtSecret: JWT_SECRET,
          accessTokenTtl: 900,
          dataDir,
          uploadLimitBytes: 1024 * 1024,
          // the probe's throw-away repository (finding 1) lives in the temporary folder
          repoPaths: [tmpdir()],
        },
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints one line per finding, every finding passing, and cleans up after itself', async () => {
    const { stdout, stderr } = await runProbe([
      '--server',
      server,
      '--user',
      'admin',
      '--password',
      ADMIN_PASSWORD,
      '--data-dir',
      dataDir,
      '--bomb-mb',
      '16',
    ]);
    const lines = stdout.split('\n').filter((l) => l.startsWith('finding'));
    const verdicts = new Map(lines.map((l) => [Number(l.match(/^finding\s+(\d+)/)?.[1]), l]));
    expect([...verdicts.keys()], stdout + stderr).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lines).toHaveLength(10);
    for (const l of lines) expect(l).toMatch(/^finding +\d+ {2}(PASS|FAIL|SKIP|ERROR) /);
    // every finding of issue 32 holds on this code (leftovers after a crash are noted, not probed)
    for (const l of lines) expect(l, stdout + stderr).toMatch(/^finding +\d+ {2}PASS /);
    expect(stderr).not.toMatch(/cleanup: .* failed/);
  }, 240_000);
});
