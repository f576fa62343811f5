import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { ReportConfig } from './lib/data-paths.ts';
import { applicationsRoutes } from './modules/applications/routes.ts';
import { ApplicationsService } from './modules/applications/service.ts';
import { createAppsService, registerApps } from './modules/apps/index.ts';
import { registerAuditLog } from './modules/audit/index.ts';
import { AuditService } from './modules/audit/service.ts';
import { Principals } from './modules/auth/principals.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { AuthService } from './modules/auth/service.ts';
import { sessionRoutes } from './modules/auth/session-routes.ts';
import { DEFAULT_SESSION_POLICY, Sessions } from './modules/auth/sessions.ts';
import { AccessTokens } from './modules/auth/tokens.ts';
import { registerBranches } from './modules/branches/index.ts';
import { registerCases } from './modules/cases/index.ts';
import { registerCoverageIntake } from './modules/intake/index.ts';
import { registerMessages } from './modules/messages/index.ts';
import { registerProjects } from './modules/projects/index.ts';
import { registerReportViews } from './modules/report-views/index.ts';
import { registerReports } from './modules/reports/index.ts';
import { serverSecrets } from './modules/reports/pipeline/secret-mask.ts';
import { reportKeysOfTeams, reportOwner } from './modules/reports/report-teams.ts';
import { registerRequirements } from './modules/requirements/index.ts';
import { registerRisks } from './modules/risks/index.ts';
import { rolesRoutes } from './modules/roles/routes.ts';
import { RolesService } from './modules/roles/service.ts';
import { type AboutFacts, aboutRoutes } from './modules/settings/about.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { registerTeams } from './modules/teams/index.ts';
import { TeamMemberships } from './modules/teams/memberships.ts';
import { profileRoutes } from './modules/users/profile-routes.ts';
import { ProfileService } from './modules/users/profile-service.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { UsersService } from './modules/users/service.ts';
import { registerVersions } from './modules/versions/index.ts';
import { registerAccess } from './plugins/access.ts';
import { registerContentSecurity } from './plugins/content-security.ts';
import { registerDocs } from './plugins/docs.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { type RealtimeOptions, registerRealtime } from './plugins/realtime.ts';
import { registerTextGuard } from './plugins/text-guard.ts';
import { registerWeb } from './plugins/web.ts';
import type { FanOut } from './realtime/broker.ts';

export type AppOptions = {
  config: Pick<Config, 'jwtSecret' | 'accessTokenTtl'> &
    Partial<
      Pick<
        Config,
        | 'dataDir'
        | 'uploadLimitBytes'
        | 'uploadMaxRatio'
        | 'uploadParsers'
        | 'uploadQueue'
        | 'uploadParseMemoryMb'
        | 'reportConcurrency'
        | 'gitTimeoutMs'
        | 'refreshIdleMs'
        | 'traceViewerPort'
        | 'adminPassword'
        | 'databaseUrl'
        | 'redisUrl'
        | 'buildSandbox'
        | 'buildUser'
        | 'buildEnvPass'
        | 'repoPaths'
        | 'repoAllowLoopback'
      >
    > & { webDist?: string };
  db: Db;
  logger?: boolean;
  /** What `/api/about` reports; tests may leave it out. */
  about?: AboutFacts;
  /** Cross-instance delivery of real-time messages (Redis when `REDIS_URL` is set). */
  fanOut?: FanOut;
  /** Socket time limits (SEXTANT_WS_CONNECT_TIMEOUT_MS, SEXTANT_WS_RECHECK_MS); tests shorten them. */
  realtime?: Omit<RealtimeOptions, 'fanOut'>;
  /** Feature modules registered after the built-in ones (each route still declares its access). */
  modules?: ((app: FastifyInstance) => void)[];
  /** Whether this process works report jobs (tests that only read reports leave it off). Default true. */
  runJobs?: boolean;
};

/** Defaults for what tests leave out: a throw-away data directory per app. */
function reportConfig(opts: AppOptions): ReportConfig {
  const { config } = opts;
  const dataDir = config.dataDir ?? mkdtempSync(join(tmpdir(), 'sextant-data-'));
  return {
    dataDir,
    uploadLimitBytes: config.uploadLimitBytes ?? 512 * 1024 * 1024,
    uploadMaxRatio: config.uploadMaxRatio ?? 100,
    uploadParsers: config.uploadParsers ?? 2,
    uploadQueue: config.uploadQueue ?? 8,
    uploadParseMemoryMb: config.uploadParseMemoryMb ?? 2048,
    reportConcurrency: config.reportConcurrency ?? 2,
    gitTimeoutMs: config.gitTimeoutMs ?? 300_000,
    runJobs: opts.runJobs ?? true,
    build: {
      sandbox: config.buildSandbox ?? 'auto',
      user: config.buildUser ?? 'nobody',
      envPass: config.buildEnvPass ?? [],
      secrets: serverSecrets(
        [config.jwtSecret, config.adminPassword, config.databaseUrl, config.redisUrl],
        process.env,
      ),
    },
    repoPolicy: {
      localFolders: config.repoPaths ?? [join(dataDir, 'demo-repos')],
      allowLoopback: config.repoAllowLoopback ?? false,
    },
  };
}

/** Builds the API; never listens (main.ts and tests decide how it is served). */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 1024 * 1024, trustProxy: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const tokens = new AccessTokens(opts.config.jwtSecret, opts.config.accessTokenTtl);
  const principals = new Principals(opts.db);
  registerContentSecurity(app, opts.config.traceViewerPort ?? 5173);
  await registerWeb(app, opts.config.webDist ?? '/nonexistent-web-dist');
  registerAccess(app, tokens, principals);
  registerTextGuard(app);
  const memberships = new TeamMemberships(opts.db);
  const teamsOfUser = (userId: string) => memberships.of(userId);
  await registerRealtime(app, teamsOfUser, { ...opts.realtime, fanOut: opts.fanOut });
  await registerDocs(app);
  const sessionPolicy = {
    ...DEFAULT_SESSION_POLICY,
    ...(opts.config.refreshIdleMs ? { idleMs: opts.config.refreshIdleMs } : {}),
  };
  authRoutes(app, new AuthService(opts.db, tokens, principals, sessionPolicy), principals);
  sessionRoutes(app, new Sessions(opts.db, sessionPolicy), principals);
  const audit = new AuditService(opts.db);
  settingsRoutes(app, principals, audit);
  usersRoutes(app, new UsersService(opts.db), audit, () => principals.invalidate());
  rolesRoutes(app, new RolesService(opts.db), audit, principals);
  applicationsRoutes(app, new ApplicationsService(opts.db), audit);
  profileRoutes(app, new ProfileService(opts.db), principals);
  const appsForTokens = createAppsService(opts.db);
  registerMessages(app, opts.db, principals, {
    appIdForToken: (token) => appsForTokens.appIdForToken(token),
    teamIdsOf: teamsOfUser,
    owners: { ownerOf: (reportId) => reportOwner(opts.db, reportId), keysOfTeams: reportKeysOfTeams },
  });
  aboutRoutes(app, opts.about ?? { version: 'test', commit: null, database: 'embedded' }, principals);
  registerAuditLog(app, opts.db);
  registerTeams(app, opts.db);
  registerRisks(app, opts.db, { teamIdsOf: teamsOfUser });
  const reports = reportConfig(opts);
  registerApps(app, opts.db, reports.repoPolicy);
  registerBranches(app, opts.db, reports.repoPolicy);
  registerProjects(app, opts.db);
  registerVersions(app, opts.db);
  registerRequirements(app, opts.db);
  registerCases(app, opts.db);
  registerCoverageIntake(app, opts.db, reports);
  await registerReports(app, opts.db, reports);
  registerReportViews(app, opts.db, reports);
  for (const register of opts.modules ?? []) register(app);
  await app.ready();
  return app;
}
