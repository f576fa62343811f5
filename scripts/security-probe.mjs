#!/usr/bin/env node
// `npm run security:probe -- --server URL --user admin --password …`: replays the ten findings of
// issue 32 against a running server and prints one line per finding (PASS, FAIL, or SKIP with the
// reason); exits 1 when a finding fails or could not be probed because of an error. It creates its
// own throw-away team, apps, users and roles (named probe-<random>-…) and removes or disables them.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { signIn } from './security-probe/client.mjs';
import { messageSpoofing, openIdleSockets, selfPromotion, socketRights } from './security-probe/findings-access.mjs';
import { buildSecrets, gzipBomb } from './security-probe/findings-build.mjs';
import { badInput, contentSecurityPolicy, leftovers, repositoryUrls } from './security-probe/findings-input.mjs';
import { sessions } from './security-probe/findings-sessions.mjs';
import { Fixtures } from './security-probe/fixtures.mjs';

const FINDINGS = [
  buildSecrets,
  gzipBomb,
  selfPromotion,
  messageSpoofing,
  socketRights,
  badInput,
  sessions,
  contentSecurityPolicy,
  leftovers,
  repositoryUrls,
];
const DEFAULT_TIMEOUT_MS = 45_000;

const USAGE = `usage: npm run security:probe -- --server URL [--user NAME] [--password PW] [options]
  --server URL        the running Sextant server (default http://127.0.0.1:8080)
  --user, --password  an administrator (or SEXTANT_PROBE_USER, SEXTANT_PROBE_PASSWORD / SEXTANT_ADMIN_PASSWORD)
  --jwt-secret KEY    the server's signing key, for finding 9 (or SEXTANT_JWT_SECRET)
  --data-dir DIR      the server's data folder on this machine: its jwt-secret file, for finding 9
  --repo URL          a repository the server may clone, for finding 1 (default: a throw-away local one)
  --bomb-mb N         how far the gzip bomb of finding 2 expands (default 600, above the 512 MB default limit)
  --only 1,6 / --skip 2   which findings to run (the others print SKIP)
  --allow-remote      probe a server that is not on this machine's loopback`;

function options() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'http://127.0.0.1:8080' },
      user: { type: 'string' },
      password: { type: 'string' },
      'jwt-secret': { type: 'string' },
      'data-dir': { type: 'string' },
      repo: { type: 'string' },
      'bomb-mb': { type: 'string', default: '600' },
      only: { type: 'string' },
      skip: { type: 'string' },
      'allow-remote': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const ids = (list) => new Set((list ?? '').split(',').filter(Boolean).map(Number));
  const env = process.env;
  return {
    help: values.help,
    server: values.server,
    user: values.user ?? env.SEXTANT_PROBE_USER ?? 'admin',
    password: values.password ?? env.SEXTANT_PROBE_PASSWORD ?? env.SEXTANT_ADMIN_PASSWORD,
    jwtSecret: values['jwt-secret'] ?? env.SEXTANT_JWT_SECRET,
    dataDir: values['data-dir'],
    repo: values.repo,
    bombMb: Math.max(1, Number(values['bomb-mb']) || 600),
    only: ids(values.only),
    skip: ids(values.skip),
    allowRemote: values['allow-remote'],
  };
}

function isLoopback(address) {
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

/** Every address the server's name resolves to must be this machine's loopback, unless allowed. */
async function refuseRemote(server, allowRemote) {
  if (allowRemote) return;
  const host = new URL(server).hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  if (addresses.length === 0 || !addresses.every(isLoopback)) {
    throw new Error(`${host} is not loopback (${addresses.join(', ')}); pass --allow-remote to probe it`);
  }
}

function signingKey(opts) {
  if (opts.jwtSecret) return opts.jwtSecret;
  const file = opts.dataDir ? join(opts.dataDir, 'jwt-secret') : null;
  return file && existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

function withDeadline(promise, ms) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function line(finding, verdict, text) {
  return `finding ${String(finding.id).padStart(2)}  ${verdict.padEnd(5)} ${finding.title}: ${text.replaceAll('\n', ' ')}`;
}

async function main() {
  const opts = options();
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  if (!opts.password) throw new Error(`an administrator's password is needed\n${USAGE}`);
  await refuseRemote(opts.server, opts.allowRemote);
  const base = new URL(opts.server).toString();
  const admin = { ...(await signIn(base, opts.user, opts.password)), password: opts.password };
  const prefix = `probe-${randomBytes(3).toString('hex')}`;
  const ctx = {
    base,
    admin,
    prefix,
    options: opts,
    jwtSecret: signingKey(opts),
    fixtures: new Fixtures(base, admin, prefix),
  };
  const chosen = (f) => (opts.only.size === 0 || opts.only.has(f.id)) && !opts.skip.has(f.id);
  let failed = false;
  try {
    if (chosen(socketRights)) ctx.idleSockets = await openIdleSockets(ctx);
    for (const finding of FINDINGS) {
      if (!chosen(finding)) {
        console.log(line(finding, 'SKIP', 'not selected (--only/--skip)'));
        continue;
      }
      try {
        const result = await withDeadline(finding.run(ctx), finding.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        if (result.skip) console.log(line(finding, 'SKIP', result.skip));
        else console.log(line(finding, result.pass ? 'PASS' : 'FAIL', result.observed));
        failed ||= result.pass === false;
      } catch (error) {
        console.log(line(finding, 'ERROR', String(error?.message ?? error)));
        failed = true;
      }
    }
  } finally {
    for (const socket of Object.values(ctx.idleSockets ?? {})) socket.ws.terminate();
    const left = await ctx.fixtures.cleanUp();
    if (left.length) console.error(`cleanup: ${left.length} step(s) failed: ${left.join('; ')}`);
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    const cause = error?.cause?.code ? ` (${error.cause.code})` : '';
    console.error(`security probe: ${error?.message ?? error}${cause}`);
    process.exit(2);
  },
);
