import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useSpawnHelper } from '@sextant/coverage/node';
import { buildApp } from './app.ts';
import { loadConfig, roleOf } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seed } from './db/seed.ts';
import { logOptions } from './log-options.ts';
import { listenOtlpGrpc, listenTraceViewer } from './modules/traces/index.ts';
import { listenProbes } from './probe-server.ts';
import { createRedisFanOut } from './realtime/fanout-redis.ts';

const config = loadConfig();
// web: the API, the web app and /ws, queueing jobs; worker: the jobs, with only the probes on PORT; all: both.
const role = roleOf(process.argv.slice(2));
if (role !== 'all' && !(config.databaseUrl && config.redisUrl)) {
  // The embedded database is one process's; live messages cross processes only through Redis.
  process.stderr.write(`--role ${role} needs DATABASE_URL (PostgreSQL) and REDIS_URL; without them run --role all\n`);
  process.exit(2);
}
// Git and builds are started by a helper forked now, while this process is small (issue 41).
await useSpawnHelper();
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: `${config.dataDir}/pg` });
const generated = await seed(database.db, config.adminPassword);
if (generated) {
  // Kept (mode 0600) like Jenkins' initialAdminPassword, so `npm run demo` can sign in on a fresh install.
  const file = join(config.dataDir, 'initial-admin-password');
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  process.stdout.write(`Sextant admin password: ${generated} (also in ${file})\n`);
}
const fanOut = config.redisUrl ? await createRedisFanOut(config.redisUrl) : undefined;
const about = {
  version: packageVersion(),
  commit: buildCommit(),
  database: config.databaseUrl ? ('postgresql' as const) : ('embedded' as const),
};
// The generated password is masked in build output like a configured one (issue 32).
const initialPassword = generated ?? keptInitialPassword();
const app = await buildApp({
  config: { ...config, adminPassword: config.adminPassword ?? initialPassword },
  db: database.db,
  logger: logOptions(process.stdout.isTTY === true),
  fanOut,
  about,
  role,
});
if (role !== 'all' && config.uploadStorage === 'file') {
  // ADR 0006: a worker reads what a web process received only through a folder both mount.
  app.log.warn(
    `SEXTANT_UPLOAD_STORAGE=file with --role ${role}: every web and worker process needs the same data folder`,
  );
}
let probes: Awaited<ReturnType<typeof listenProbes>> | null = null;
let viewer: Awaited<ReturnType<typeof listenTraceViewer>> = null;
let otlpGrpc: Awaited<ReturnType<typeof listenOtlpGrpc>> = null;
if (role === 'worker') {
  probes = await listenProbes(app, config.port, config.host);
  const address = probes.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(`Worker probes listening at http://${config.host}:${port} (role worker: jobs only)`);
} else {
  await app.listen({ port: config.port, host: config.host });
  // The trace viewer's own port (specification point 2), answered by this same process.
  viewer = await listenTraceViewer(app, {
    webDist: config.webDist,
    port: config.traceViewerPort,
    host: config.host,
  });
  // OTLP/gRPC on its own port (issue 36), the same intake as POST /v1/traces.
  otlpGrpc = await listenOtlpGrpc(app, { port: config.otlpGrpcPort, host: config.host });
  app.log.info(`role ${role}`);
}

/** A shutdown that takes longer (a job step that cannot be interrupted, a stuck request) ends the process. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

let closing = false;
/**
 * Graceful shutdown (SIGTERM, SIGINT): `/readyz` answers 503 at once (for the delay configured, everything
 * else still serves); then the ports stop taking connections and requests in flight end;
 * STOMP clients get an ERROR frame telling them to connect again (realtime plugin); running report
 * jobs are stopped and handed back at once, so another worker (or this one, restarted) takes them
 * (the job queue, stopped last among the app's hooks).
 */
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  const force = setTimeout(() => {
    app.log.error(`not closed within ${SHUTDOWN_TIMEOUT_MS} ms; exiting`);
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  force.unref();
  // Not ready from now on, while still serving: a load balancer polling /readyz stops sending here
  // before the port closes (SEXTANT_SHUTDOWN_DELAY_S; 0 closes at once).
  app.beginShutdown();
  if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
  if (probes) {
    const server = probes;
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  }
  await viewer?.close();
  await otlpGrpc?.close();
  await app.close();
  await fanOut?.close();
  await database.close();
  app.log.info('closed');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

function keptInitialPassword(): string | undefined {
  try {
    return readFileSync(join(config.dataDir, 'initial-admin-password'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The commit the server runs from: SEXTANT_BUILD_COMMIT, else the checkout's HEAD, else unknown. */
function buildCommit(): string | null {
  if (process.env.SEXTANT_BUILD_COMMIT) return process.env.SEXTANT_BUILD_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}
