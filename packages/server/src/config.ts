import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  SEXTANT_DATA_DIR: z.string().min(1).default('./data'),
  SEXTANT_ADMIN_PASSWORD: z.string().min(8).optional(),
  SEXTANT_JWT_SECRET: z.string().min(32).optional(),
  SEXTANT_ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(900),
  SEXTANT_REFRESH_IDLE_HOURS: z.coerce
    .number()
    .positive()
    .max(14 * 24)
    .default(12),
  SEXTANT_TRACE_VIEWER_PORT: z.coerce.number().int().min(1).max(65535).default(5173),
  SEXTANT_WEB_DIST: z.string().min(1).default('packages/web/dist'),
  SEXTANT_UPLOAD_STORAGE: z.enum(['file', 'database']).optional(),
  SEXTANT_UPLOAD_LIMIT_MB: z.coerce.number().positive().default(512),
  SEXTANT_OTLP_LIMIT_MB: z.coerce.number().positive().default(64),
  SEXTANT_OTLP_CONCURRENCY: z.coerce.number().int().min(1).default(16),
  SEXTANT_OTLP_GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(4317),
  SEXTANT_METRICS_TOKEN: z.string().min(16).optional(),
  SEXTANT_UPLOAD_MAX_RATIO: z.coerce.number().min(1).default(100),
  SEXTANT_UPLOAD_PARSERS: z.coerce.number().int().min(1).max(64).default(2),
  SEXTANT_UPLOAD_QUEUE: z.coerce.number().int().min(0).max(10_000).default(8),
  SEXTANT_UPLOAD_PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
  SEXTANT_SHUTDOWN_DELAY_S: z.coerce.number().min(0).max(20).default(0),
  SEXTANT_JACOCO_LIB: z.string().min(1).default('/usr/share/java'),
  SEXTANT_REPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  SEXTANT_ANALYTICS_CACHE_S: z.coerce.number().min(0).max(3600).default(30),
  SEXTANT_GIT_TIMEOUT_S: z.coerce.number().int().min(1).default(300),
  SEXTANT_WS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SEXTANT_WS_RECHECK_MS: z.coerce.number().int().min(100).default(2000),
  SEXTANT_BUILD_SANDBOX: z.enum(['auto', 'bwrap', 'user', 'off']).default('auto'),
  SEXTANT_BUILD_USER: z
    .string()
    .regex(/^[a-z_][a-z0-9_-]*$/i, 'a user name')
    .default('nobody'),
  SEXTANT_BUILD_ENV_PASS: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*([ ,]+[A-Za-z_][A-Za-z0-9_]*)*$/, 'variable names separated by commas')
    .optional(),
  SEXTANT_REPO_PATHS: z.string().optional(),
  SEXTANT_REPO_ALLOW_LOOPBACK: z.enum(['true', 'false', '1', '0']).optional(),
});

/** What a server process does (README "Operating"): serve and queue, work jobs, or both. */
export const ROLES = ['web', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** `--role <role>` (or `--role=<role>`) on the command line, else SEXTANT_ROLE, else `all`. */
export function roleOf(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Role {
  let given: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--role') given = argv[i + 1] ?? '';
    else if (arg.startsWith('--role=')) given = arg.slice('--role='.length);
  });
  given ??= env.SEXTANT_ROLE || 'all';
  if (!(ROLES as readonly string[]).includes(given)) {
    throw new Error(`Invalid configuration:\nrole: expected one of ${ROLES.join(', ')}, got "${given}"`);
  }
  return given as Role;
}

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Bearer token a Prometheus scrape of `/metrics` sends; unset, `/metrics` answers 404. */
  metricsToken: string | undefined;
  dataDir: string;
  adminPassword: string | undefined;
  jwtSecret: string;
  accessTokenTtl: number;
  /** A refresh token unused this long is refused (its session ends); each rotation restarts the time. */
  refreshIdleMs: number;
  traceViewerPort: number;
  /** Largest OTLP trace export accepted, in bytes after decompression (OTLP's recommended 64 MiB). */
  otlpLimitBytes: number;
  /** OTLP exports received and written at once; one more is refused with 429 and Retry-After. */
  otlpConcurrency: number;
  /** Port of the OTLP/gRPC trace intake (4317, as exporters default to); 0 turns it off. */
  otlpGrpcPort: number;
  webDist: string;
  /** Where accepted uploads are kept (ADR 0006): `database` by default with DATABASE_URL, else `file`. */
  uploadStorage: 'file' | 'database';
  /** Largest coverage upload accepted, in bytes (refused from Content-Length before reading), and decompressed. */
  uploadLimitBytes: number;
  /** How many times a gzipped upload may expand (past its first 8 MiB). */
  uploadMaxRatio: number;
  /** Uploads parsed at once, each in a worker thread. */
  uploadParsers: number;
  /** Uploads in progress beyond the parsers before more are refused with 429. */
  uploadQueue: number;
  /** Heap of one upload's parser thread, in MB. */
  uploadParseMemoryMb: number;
  /** On SIGTERM, how long `/readyz` answers 503 while everything still serves, before the ports close. */
  shutdownDelayMs: number;
  /** Where JaCoCo's jars are (jacocoant.jar, or Debian's org.jacoco.*.jar): exec uploads become figures with them. */
  jacocoLib: string;
  /** Report jobs run at once by this process. */
  reportConcurrency: number;
  /**
   * How long an analytics answer is given again while no write bumps the report data's generation
   * (agents alive move with the clock alone); 0: no cache (lib/generation-cache.ts).
   */
  analyticsCacheMs: number;
  gitTimeoutMs: number;
  /** A socket that has not signed in (STOMP CONNECT) by then is closed. */
  wsConnectTimeoutMs: number;
  /** How often a signed-in socket's token and rights are checked again; revocation ends it. */
  wsRecheckMs: number;
  /** How app build commands are isolated (issue 32): auto, bwrap, user or off. */
  buildSandbox: 'auto' | 'bwrap' | 'user' | 'off';
  /** The unprivileged user builds run as when the server runs as root. */
  buildUser: string;
  /** Names of server variables a build receives; it gets no other variable of the server's. */
  buildEnvPass: string[];
  /** Folders whose repositories apps may name by a local path; default: the data dir's demo-repos. */
  repoPaths: string[];
  /** Whether repository URLs may name a loopback address (127.0.0.0/8, ::1, localhost). */
  repoAllowLoopback: boolean;
};

/** Reads the environment once; a missing JWT secret is generated and kept in the data dir (mode 0600). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as shells and CI files often write it.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.SEXTANT_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    metricsToken: e.SEXTANT_METRICS_TOKEN,
    dataDir,
    adminPassword: e.SEXTANT_ADMIN_PASSWORD,
    jwtSecret: e.SEXTANT_JWT_SECRET ?? keptSecret(dataDir),
    accessTokenTtl: e.SEXTANT_ACCESS_TOKEN_TTL,
    refreshIdleMs: Math.round(e.SEXTANT_REFRESH_IDLE_HOURS * 3600_000),
    traceViewerPort: e.SEXTANT_TRACE_VIEWER_PORT,
    otlpLimitBytes: Math.round(e.SEXTANT_OTLP_LIMIT_MB * 1024 * 1024),
    otlpConcurrency: e.SEXTANT_OTLP_CONCURRENCY,
    otlpGrpcPort: e.SEXTANT_OTLP_GRPC_PORT,
    webDist: resolve(e.SEXTANT_WEB_DIST),
    uploadStorage: e.SEXTANT_UPLOAD_STORAGE ?? (e.DATABASE_URL ? 'database' : 'file'),
    uploadLimitBytes: Math.round(e.SEXTANT_UPLOAD_LIMIT_MB * 1024 * 1024),
    uploadMaxRatio: e.SEXTANT_UPLOAD_MAX_RATIO,
    uploadParsers: e.SEXTANT_UPLOAD_PARSERS,
    uploadQueue: e.SEXTANT_UPLOAD_QUEUE,
    uploadParseMemoryMb: e.SEXTANT_UPLOAD_PARSE_MEMORY_MB,
    shutdownDelayMs: Math.round(e.SEXTANT_SHUTDOWN_DELAY_S * 1000),
    jacocoLib: resolve(e.SEXTANT_JACOCO_LIB),
    reportConcurrency: e.SEXTANT_REPORT_CONCURRENCY,
    analyticsCacheMs: Math.round(e.SEXTANT_ANALYTICS_CACHE_S * 1000),
    gitTimeoutMs: e.SEXTANT_GIT_TIMEOUT_S * 1000,
    wsConnectTimeoutMs: e.SEXTANT_WS_CONNECT_TIMEOUT_MS,
    wsRecheckMs: e.SEXTANT_WS_RECHECK_MS,
    buildSandbox: e.SEXTANT_BUILD_SANDBOX,
    buildUser: e.SEXTANT_BUILD_USER,
    buildEnvPass: e.SEXTANT_BUILD_ENV_PASS?.split(/[ ,]+/).filter(Boolean) ?? [],
    repoPaths: e.SEXTANT_REPO_PATHS
      ? e.SEXTANT_REPO_PATHS.split(':')
          .filter(Boolean)
          .map((folder) => resolve(folder))
      : [join(dataDir, 'demo-repos')],
    repoAllowLoopback: e.SEXTANT_REPO_ALLOW_LOOPBACK === 'true' || e.SEXTANT_REPO_ALLOW_LOOPBACK === '1',
  };
}

function keptSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
