// The database of a bench/report-pipeline run: PGlite in a temporary folder, as `npm start` keeps it in
// ./data (its worker runs in the measured process; in memory, its files would count in the RSS and
// grow by copying: holds of several hundred ms of CPU on a 20,000-class report, none on disk), or a
// throw-away database on the PostgreSQL server (DATABASE_URL, default the local `test`).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../packages/server/src/db/client.ts';

export type Target = 'pglite' | 'postgres';

export function isTarget(value: string | undefined): value is Target {
  return value === 'pglite' || value === 'postgres';
}

export async function openBenchDatabase(target: Target): Promise<Database> {
  if (target === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'sx-bench-pg-'));
    const database = await openDatabase({ pgliteDir: dir, traceHolds: true });
    return {
      ...database,
      close: async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `sx_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin(`drop database ${name} with (force)`);
    },
  };
}
