import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { ReportConfig } from './lib/data-paths.ts';
import { registerApplications } from './modules/applications/index.ts';
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
import { createProjectsService, registerProjects } from './modules/projects/index.ts';
import { registerReportViews } from './modules/report-views/index.ts';
import { registerReports } from './modules/reports/index.ts';
import { serverSecrets } from './modules/reports/pipeline/secret-mask.ts';
import { reportKeysOfTeams, reportOwner } from './modules/reports/report-teams.ts';
import { createRequirementsService, registerRequirements } from './modules/requirements/index.ts';
import { registerRoles } from './modules/roles/index.ts';
import type { AboutFacts } from './modules/settings/about.ts';
import { registerSettings } from './modules/settings/index.ts';
import { createTeamsService, registerTeams } from './modules/teams/index.ts';
import { TeamMemberships } from './modules/teams/memberships.ts';
import { profileRoutes } from './modules/users/profile-routes.ts';
import { ProfileService } from './modules/users/profile-service.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { UsersService } from './modules/users/service.ts';
import { createVersionsService, registerVersions } from './modules/versions/index.ts';
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
  usersRoutes(app, new UsersService(opts.db), audit, () => principals.invalidate());
  registerRoles(app, opts.db, { audit, principals });
  registerApplications(app, opts.db, { audit });
  profileRoutes(app, new ProfileService(opts.db), principals);
  const reports = reportConfig(opts);
  // Services other modules read, built once and handed to the modules that need them.
  const apps = createAppsService(opts.db, reports.repoPolicy);
  registerMessages(app, opts.db, principals, {
    appIdForToken: (token) => apps.appIdForToken(token),
    teamIdsOf: teamsOfUser,
    owners: { ownerOf: (reportId) => reportOwner(opts.db, reportId), keysOfTeams: reportKeysOfTeams },
  });
  const about = opts.about ?? { version: 'test', commit: null, database: 'embedded' };
  registerSettings(app, { audit, principals, about });
  registerAuditLog(app, audit);
  registerApps(app, opts.db, reports.repoPolicy);
  const teams = createTeamsService(opts.db, audit);
  const projects = createProjectsService(opts.db, { audit, teams, apps });
  const versions = createVersionsService(opts.db, { audit, projects, apps });
  const requirements = createRequirementsService(opts.db, { audit, projects, versions });
  registerTeams(app, teams);
  registerBranches(app, opts.db, { audit, apps });
  registerProjects(app, projects);
  registerVersions(app, versions);
  registerRequirements(app, requirements);
  registerCases(app, opts.db, { audit, apps, requirements });
  registerCoverageIntake(app, opts.db, reports);
  await registerReports(app, opts.db, reports);
  registerReportViews(app, opts.db, reports);
  for (const register of opts.modules ?? []) register(app);
  await app.ready();
  return app;
}
