/**
 * Every path of the API, once (issue 33): the server registers its routes with these patterns, the web
 * client and the CLI fill them in with `pathTo`. The specification's calls (point 7) keep their exact
 * spelling. A `:name` segment is a path parameter, as Fastify reads it.
 */
export const PATHS = {
  // Accounts and sessions (specification points 3 and 9).
  login: '/api/login',
  refreshToken: '/api/refreshToken',
  register: '/api/jwt/register',
  logout: '/api/jwt/logout',
  me: '/api/me',
  myProfile: '/api/me/profile',
  myPassword: '/api/me/password',
  mySessions: '/api/me/sessions',
  /** The names and e-mail addresses the signed-in user commits under (issue 34). */
  myGitIdentities: '/api/me/gitIdentities',
  mySession: '/api/me/sessions/:id',
  revokeOtherSessions: '/api/me/sessions/revokeOthers',
  resetPassword: '/api/resetPassword',
  applications: '/api/applications',
  approveApplication: '/api/applications/:id/approve',
  rejectApplication: '/api/applications/:id/reject',
  users: '/api/users',
  user: '/api/users/:id',
  userResetLink: '/api/users/:id/resetLink',
  userGitIdentities: '/api/users/:id/gitIdentities',
  roles: '/api/roles',
  role: '/api/roles/:id',
  settings: '/api/settings',
  about: '/api/about',
  // Administration (issue 4).
  teams: '/api/teams',
  team: '/api/teams/:id',
  apps: '/api/apps',
  app: '/api/apps/:id',
  appTestConnection: '/api/apps/:id/testConnection',
  appRotateToken: '/api/apps/:id/rotateToken',
  appRefreshBranches: '/api/apps/:id/refreshBranches',
  appAgents: '/api/apps/:id/agents',
  branches: '/api/branches',
  branch: '/api/branches/:id',
  projects: '/api/projects',
  project: '/api/projects/:id',
  versions: '/api/versions',
  version: '/api/versions/:id',
  requirements: '/api/requirements',
  requirement: '/api/requirements/:id',
  cases: '/api/cases',
  case: '/api/cases/:id',
  casesImport: '/api/cases/import',
  auditLogs: '/api/auditLogs',
  // Reports (specification point 7) and coverage intake.
  searchReports: '/api/searchReports',
  getReport: '/api/getReport',
  getReportDetails: '/api/getReportDetails',
  reports: '/api/reports',
  report: '/api/reports/:id',
  reportFiles: '/api/reports/:id/files',
  reportSource: '/api/reports/:id/source',
  uploads: '/api/coverage/uploads',
  agentHeartbeat: '/api/coverage/agents/heartbeat',
  classSets: '/api/coverage/class-sets',
  classFiles: '/api/coverage/class-files',
  dashboard: '/api/dashboard',
  // Analytics (issue 35).
  analyticsApps: '/api/analytics/apps',
  analyticsAppOverview: '/api/analytics/apps/overview',
  analyticsCommitters: '/api/analytics/committers',
  analyticsCommitterTrend: '/api/analytics/committers/trend',
  analyticsProjects: '/api/analytics/projects',
  analyticsVersions: '/api/analytics/versions',
  analyticsCockpit: '/api/analytics/cockpit',
  /** The signed-in user's own changed methods over time (/dashboard/myAnalytic). */
  analyticsMine: '/api/analytics/mine',
  analyticsRequirements: '/api/analytics/requirements',
  analyticsCases: '/api/analytics/cases',
  analyticsCaseMethods: '/api/analytics/cases/methods',
  analyticsCaseImpact: '/api/analytics/cases/impact',
  projectDashboard: '/api/analytics/projects/:id',
  // Messages and notifications (specification point 10).
  messages: '/api/messages',
  messageHeartbeats: '/api/messages/heartbeats',
  notifications: '/api/notifications',
  notificationsReadAll: '/api/notifications/readAll',
  notificationRead: '/api/notifications/:id/read',
  notificationHide: '/api/notifications/:id/hide',
  // Risk items (issue 34).
  risks: '/api/risks',
  riskHeadline: '/api/risks/headline',
  riskTreemap: '/api/risks/treemap',
  riskAskDecision: '/api/risks/ask-decision',
  riskHistory: '/api/risks/:id/history',
  riskJudgment: '/api/risks/:id/judgment',
  /** Whom a "needs test" judgment may assign: the app's team, the method's author, the judge. */
  riskAssignees: '/api/risks/:id/assignees',
  // Traces (issue 36). OTLP/HTTP's path is fixed by the OpenTelemetry exporters
  // (`OTEL_EXPORTER_OTLP_ENDPOINT=<server>` makes them post here).
  otlpTraces: '/v1/traces',
  traces: '/api/traces',
  trace: '/api/traces/:traceId',
  traceInterfaces: '/api/traces/interfaces',
  traceInterface: '/api/traces/interface',
  regressions: '/api/traces/regressions',
  regression: '/api/traces/regressions/:id',
  /** Hands the caller's session to the trace viewer's port as a cookie (point 6: same session, port 5173). */
  traceViewerSession: '/api/traces/viewer-session',
  // ZenTao (issue 35): the screen's status, the administrator's settings, an import run now.
  zentao: '/api/zentao',
  zentaoConfig: '/api/zentao/config',
  zentaoImport: '/api/zentao/import',
  // Process probes for process managers and load balancers (issue 41), outside /api like OTLP.
  healthz: '/healthz',
  readyz: '/readyz',
  metrics: '/metrics',
  // Documentation and the message socket.
  docs: '/api/docs',
  ws: '/ws',
} as const;

/**
 * What the trace viewer's own port serves (specification point 2: port 5173), apart from the API's:
 * the viewer page of a trace, and the API calls it makes, passed to the app one by one.
 */
export const VIEWER_PATHS = {
  trace: '/trace/:traceId',
  api: '/api/*',
} as const;

export type PathName = keyof typeof PATHS;
export type PathPattern = (typeof PATHS)[PathName];

/** The parameter names of a pattern: `'/api/teams/:id'` → `'id'`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<P extends string> = Record<ParamNames<P>, string>;

/** A pattern with its parameters filled in, each one URL-encoded. */
export function pathTo<P extends PathPattern>(pattern: P, params: PathParams<P>): string {
  const values = params as Record<string, string>;
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${pattern}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** Browser storage keys of specification points 3 and 9. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  userData: 'userData',
  lastRouterPath: 'lastRouterPath',
  excellentGrade: 'excellentGrade',
  passingGrade: 'passingGrade',
  licenseVersion: 'licenseVersion',
  showJudgment: 'showJudgment',
  skin: 'skin',
  wsMaxHistoryLength: 'wsMaxHistoryLength',
} as const;
