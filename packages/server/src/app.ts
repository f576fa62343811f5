import { useSpawnHelper } from '@sextant/coverage/node';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { Config, Role } from './config.ts';
import type { Db } from './db/client.ts';
import type { ReportConfig } from './lib/data-paths.ts';
import { JobQueue } from './lib/job-queue.ts';
import { registerAnalytics } from './modules/analytics/index.ts';
import { createApplicationsService, registerApplications } from './modules/applications/index.ts';
import { createAppsService, registerApps } from './modules/apps/index.ts';
import { registerAuditLog } from './modules/audit/index.ts';
import { AuditService } from './modules/audit/service.ts';
import { createAuth, registerAuth } from './modules/auth/index.ts';
import { registerBranches } from './modules/branches/index.ts';
import { registerCases } from './modules/cases/index.ts';
import { registerHealth } from './modules/health/index.ts';
import { registerCoverageIntake } from './modules/intake/index.ts';
import { registerMessages } from './modules/messages/index.ts';
import { createInstruments, registerMetrics } from './modules/metrics/index.ts';
import { createProjectsService, registerProjects } from './modules/projects/index.ts';
import { registerReportViews } from './modules/report-views/index.ts';
import { registerReports } from './modules/reports/index.ts';
import { serverSecrets } from './modules/reports/pipeline/secret-mask.ts';
import { ReportTeams } from './modules/reports/report-teams.ts';
import { ServedReports } from './modules/reports/served-reports.ts';
import { createRequirementsService, registerRequirements } from './modules/requirements/index.ts';
import { registerRisks } from './modules/risks/index.ts';
import { registerRoles } from './modules/roles/index.ts';
import type { AboutFacts } from './modules/settings/about.ts';
import { registerSettings } from './modules/settings/index.ts';
import { createTeamsService, registerTeams } from './modules/teams/index.ts';
import { TeamMemberships } from './modules/teams/memberships.ts';
import { registerTraces } from './modules/traces/index.ts';
import { registerUsers } from './modules/users/index.ts';
import { createVersionsService, registerVersions } from './modules/versions/index.ts';
import { registerZentao } from './modules/zentao/index.ts';
import { registerAccess } from './plugins/access.ts';
import { registerContentSecurity } from './plugins/content-security.ts';
import { registerDocs } from './plugins/docs.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { registerRealtime } from './plugins/realtime.ts';
import { registerTextGuard } from './plugins/text-guard.ts';
import { registerWeb } from './plugins/web.ts';
import type { FanOut } from './realtime/broker.ts';

export type AppOptions = {
  /** The whole configuration (main.ts reads it from the environment; tests build theirs). */
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  /** What `/api/about` reports. */
  about: AboutFacts;
  /** Cross-instance delivery of real-time messages (Redis when `REDIS_URL` is set). */
  fanOut?: FanOut;
  /** Feature modules registered after the built-in ones (each route still declares its access). */
  modules?: ((app: FastifyInstance) => void)[];
  /**
   * What this process does (`--role`, README "Operating"): `web` serves and queues jobs, `worker` works
   * them, `all` both. main.ts decides whether to listen; here it decides who works jobs. Default `all`.
   */
  role?: Role;
  /** Whether this process works report jobs (tests that only read reports leave it off). Default true. */
  runJobs?: boolean;
  /**
   * Whether branches are fetched by the server itself: a new app's at once, every app's on the schedule
   * (`SEXTANT_BRANCH_REFRESH_CRON`). Default: on where jobs are worked or queued for workers (`web`);
   * test apps leave it off unless they test it.
   */
  refreshBranches?: boolean;
  /** Whether this process runs the scheduled ZenTao import (`SEXTANT_ZENTAO_IMPORT_CRON`). Default: as `runJobs`. */
  scheduleZentao?: boolean;
};

/** The origin of an http(s) address, or null (an empty or odd setting frames nothing). */
function frameOrigin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

function reportConfig(opts: AppOptions, runJobs: boolean): ReportConfig {
  const { config } = opts;
  return {
    dataDir: config.dataDir,
    uploadStorage: config.uploadStorage,
    uploadLimitBytes: config.uploadLimitBytes,
    uploadMaxRatio: config.uploadMaxRatio,
    uploadParsers: config.uploadParsers,
    uploadQueue: config.uploadQueue,
    uploadParseMemoryMb: config.uploadParseMemoryMb,
    jacocoLib: config.jacocoLib,
    reportConcurrency: config.reportConcurrency,
    gitTimeoutMs: config.gitTimeoutMs,
    runJobs,
    build: {
      sandbox: config.buildSandbox,
      user: config.buildUser,
      envPass: config.buildEnvPass,
      secrets: serverSecrets(
        [config.jwtSecret, config.adminPassword, config.databaseUrl, config.redisUrl],
        process.env,
      ),
    },
    repoPolicy: { localFolders: config.repoPaths, allowLoopback: config.repoAllowLoopback },
  };
}

/** Builds the API; never listens (main.ts and tests decide how it is served). */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    // The ready hooks start the job queue (pg-boss makes its schema on first start) and its schedules:
    // on a busy machine that took longer than Fastify's 10 s default, and the server gave up starting.
    pluginTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const instruments = createInstruments(opts.db);
  registerMetrics(app, instruments, opts.config.metricsToken);
  const auth = createAuth(opts.db, opts.config);
  const { principals } = auth;
  // /zentao may frame ZenTao's origin, the one an administrator set (and no other).
  registerContentSecurity(app, opts.config.traceViewerPort, async () =>
    frameOrigin((await principals.settings()).zentaoUrl),
  );
  await registerWeb(app, opts.config.webDist);
  registerAccess(app, auth.authenticator);
  registerTextGuard(app);
  const memberships = new TeamMemberships(opts.db);
  const teamsOfUser = (userId: string) => memberships.of(userId);
  await registerRealtime(app, teamsOfUser, {
    connectTimeoutMs: opts.config.wsConnectTimeoutMs,
    recheckMs: opts.config.wsRecheckMs,
    fanOut: opts.fanOut,
    connections: {
      opened: () => {
        instruments.stompConnections.inc();
        instruments.stompConnectionsTotal.inc();
      },
      closed: () => instruments.stompConnections.dec(),
    },
  });
  await registerDocs(app);
  registerAuth(app, opts.db, auth);
  const fanOut = opts.fanOut;
  registerHealth(app, opts.db, fanOut ? { redis: () => fanOut.ping() } : {});
  const audit = new AuditService(opts.db);
  const applications = createApplicationsService(opts.db);
  registerUsers(app, opts.db, { audit, principals, requests: applications });
  registerRoles(app, opts.db, { audit, principals });
  registerApplications(app, applications, audit);
  const role = opts.role ?? 'all';
  const works = role !== 'web' && (opts.runJobs ?? true);
  // Git (the pipeline's, and a web process's remote checks) starts from a small helper process: a
  // fork from a server of 1 GB held its thread for ~200 ms a command on a loaded machine (issue 41).
  // main.ts forks it first thing; here for processes that build the app themselves (benches, tests).
  await useSpawnHelper();
  // The process's one job queue (pg-boss on the app's own pool: drizzle keeps the pg Pool it was opened
  // on, PGlite behind its socket too), handed to the modules that queue or work jobs; stopped once.
  const queue = new JobQueue({ pool: (opts.db as Db & { $client: pg.Pool }).$client, log: app.log, works });
  app.addHook('onClose', () => queue.stop());
  // Scheduled work (branch refreshes, risk runs) is queued where it is worked, and by web processes.
  const scheduled = works || role === 'web';
  const reports = reportConfig(opts, works);
  // Services other modules read, built once and handed to the modules that need them.
  const teams = createTeamsService(opts.db, audit);
  const apps = createAppsService(opts.db, { audit, teams, repoPolicy: reports.repoPolicy });
  registerMessages(app, opts.db, principals, {
    appIdForToken: (token) => apps.appIdForToken(token),
    teamIdsOf: teamsOfUser,
    owners: new ReportTeams(opts.db, apps),
  });
  registerSettings(app, { audit, principals, about: opts.about });
  registerAuditLog(app, audit);
  const branchJobs = registerBranches(app, opts.db, {
    audit,
    apps,
    queue,
    refresh: opts.refreshBranches ?? scheduled,
  });
  registerApps(app, apps, (appId) => void branchJobs.appCreated(appId));
  const projects = createProjectsService(opts.db, { audit, teams, apps });
  const versions = createVersionsService(opts.db, { audit, projects, apps });
  const requirements = createRequirementsService(opts.db, { audit, projects, versions });
  registerTeams(app, teams);
  registerProjects(app, projects);
  registerVersions(app, versions);
  registerRequirements(app, requirements);
  const cases = registerCases(app, opts.db, { audit, apps, requirements });
  registerZentao(app, opts.db, {
    audit,
    principals,
    projects,
    apps,
    requirements,
    cases,
    secret: opts.config.jwtSecret,
    queue,
    schedule: opts.scheduleZentao ?? works,
  });
  const servedReports = new ServedReports(opts.db);
  registerCoverageIntake(app, opts.db, reports, {
    teamIdsOf: teamsOfUser,
    reportsServed: (agent) => servedReports.ids(agent),
    apps,
  });
  registerRisks(app, opts.db, {
    audit,
    teamIdsOf: teamsOfUser,
    teamPeople: async (teamId) => {
      const team = await teams.get(teamId);
      return [...(team.leader ? [team.leader] : []), ...team.members];
    },
    settings: () => principals.settings(),
    ...(scheduled ? { queue } : {}),
  });
  await registerReports(app, opts.db, reports, { apps, teams, audit, principals, queue });
  registerReportViews(app, opts.db, reports);
  registerAnalytics(app, opts.db, { apps, projects, cacheMs: opts.config.analyticsCacheMs });
  registerTraces(app, opts.db, {
    settings: () => principals.settings(),
    appIdForToken: (token) => apps.appIdForToken(token),
    limitBytes: opts.config.otlpLimitBytes,
    concurrentExports: opts.config.otlpConcurrency,
  });
  for (const register of opts.modules ?? []) register(app);
  await app.ready();
  return app;
}
