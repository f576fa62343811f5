import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * What a test file needs from this machine beyond Node and git, which is all `npm test` may assume
 * (README, Tests). Each check answers null when the thing is there, else a phrase naming what is
 * missing; `skipWithout` turns that into a skip with one printed line, or into a failure in CI.
 */

/** The commands not found on PATH, or null. */
export function missingCommands(...commands: string[]): string | null {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const absent = commands.filter((command) => !dirs.some((dir) => existsSync(join(dir, command))));
  return absent.length > 0 ? `${absent.join(', ')} on PATH` : null;
}

/** The files that do not exist, or null. */
export function missingFiles(...paths: string[]): string | null {
  const absent = paths.filter((path) => !existsSync(path));
  return absent.length > 0 ? absent.join(', ') : null;
}

/** The first phrase that is not null: several needs of one file. */
export function firstMissing(...checks: (string | null)[]): string | null {
  return checks.find((check) => check !== null) ?? null;
}

/** null when a PostgreSQL server answers `select 1` at `url` within 3 s. */
export async function missingPostgres(url: string): Promise<string | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (e) {
    return `PostgreSQL at ${redacted(url)} (${(e as Error).message || (e as { code?: string }).code})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** null when a Redis server answers PING at `url` within 3 s. */
export function missingRedis(url: string): Promise<string | null> {
  const { hostname, port } = new URL(url);
  const named = `Redis at ${redacted(url)}`;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (missing: string | null) => {
      socket.destroy();
      resolve(missing);
    };
    socket.setTimeout(3000, () => done(`${named} (no answer in 3 s)`));
    socket.on('error', (e) => done(`${named} (${e.message || (e as { code?: string }).code})`));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG') ? null : `${named} (answered ${data})`));
  });
}

function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * True when the suite must be skipped because `missing` is not null, after printing one line that
 * says so. With CI=true it throws instead: CI installs every tool and starts every service, so a
 * missing one is a broken CI, not a reason to test less.
 */
export function skipWithout(suite: string, missing: string | null): boolean {
  if (missing === null) return false;
  if (process.env.CI === 'true') {
    throw new Error(`${suite} needs ${missing}; CI=true makes a missing tool or service fail the run`);
  }
  console.warn(`skipped: ${suite} (needs ${missing})`);
  return true;
}
