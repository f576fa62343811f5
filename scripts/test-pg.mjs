#!/usr/bin/env node
// Runs the server suites that DATABASE_URL reaches (scripts/pg-suites.mjs says which and why) against
// the real PostgreSQL: a throw-away database, dropped afterwards. The server's other test files would
// run exactly as they do in `npm test` on the embedded database, so they run there only.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { serverSuites } from './pg-suites.mjs';

const server = process.env.PG_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `sextant_ci_${randomBytes(6).toString('hex')}`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

await admin(`create database ${name}`);
const url = new URL(server);
url.pathname = `/${name}`;
let status = 1;
try {
  const run = spawnSync('npx', ['vitest', 'run', ...serverSuites().database, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url.toString() },
  });
  status = run.status ?? 1;
} finally {
  await admin(`drop database if exists ${name} with (force)`);
}
process.exit(status);
