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
  SEXTANT_UPLOAD_LIMIT_MB: z.coerce.number().positive().default(512),
  SEXTANT_REPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  SEXTANT_GIT_TIMEOUT_S: z.coerce.number().int().min(1).default(300),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  adminPassword: string | undefined;
  jwtSecret: string;
  accessTokenTtl: number;
  /** A refresh token unused this long is refused (its session ends); each rotation restarts the time. */
  refreshIdleMs: number;
  traceViewerPort: number;
  webDist: string;
  /** Largest coverage upload accepted, in bytes (refused from Content-Length before reading). */
  uploadLimitBytes: number;
  /** Report jobs run at once by this process. */
  reportConcurrency: number;
  gitTimeoutMs: number;
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
    dataDir,
    adminPassword: e.SEXTANT_ADMIN_PASSWORD,
    jwtSecret: e.SEXTANT_JWT_SECRET ?? keptSecret(dataDir),
    accessTokenTtl: e.SEXTANT_ACCESS_TOKEN_TTL,
    refreshIdleMs: Math.round(e.SEXTANT_REFRESH_IDLE_HOURS * 3600_000),
    traceViewerPort: e.SEXTANT_TRACE_VIEWER_PORT,
    webDist: resolve(e.SEXTANT_WEB_DIST),
    uploadLimitBytes: Math.round(e.SEXTANT_UPLOAD_LIMIT_MB * 1024 * 1024),
    reportConcurrency: e.SEXTANT_REPORT_CONCURRENCY,
    gitTimeoutMs: e.SEXTANT_GIT_TIMEOUT_S * 1000,
  };
}

function keptSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
