import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Runs one statement on the PostgreSQL server of `serverUrl` as its administrator. */
export async function asAdmin(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * An empty, unmigrated database `<prefix>_<random>` on the PostgreSQL server of `serverUrl`, for a
 * server process the test starts (which migrates it itself): its URL, and `drop()`, which ends its
 * connections first (a killed process may leave some).
 */
export async function emptyServerDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(serverUrl, `drop database if exists ${name} with (force)`) };
}
