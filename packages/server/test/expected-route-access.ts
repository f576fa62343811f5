import type { Access } from '../src/plugins/access.ts';

const OPEN = 'public';
const SIGNED_IN = 'signed-in';
const read = (resource: Exclude<Access, string>['resource']): Access => ({ action: 'read', resource });
const create = (resource: Exclude<Access, string>['resource']): Access => ({ action: 'create', resource });
const update = (resource: Exclude<Access, string>['resource']): Access => ({ action: 'update', resource });
const remove = (resource: Exclude<Access, string>['resource']): Access => ({ action: 'delete', resource });

/**
 * Who may call each /api route, written from the specification (point 6: an action and resource per
 * screen and call; point 2's screens; point 7's calls) and the product's intended behaviour, NOT read
 * from the routes: `routes-access.test.ts` fails when a route declares anything else, or when a route
 * is missing here. A new route is added to this table by hand, with the screen it serves in mind.
 * Keys are "METHOD path"; HEAD answers as its GET does.
 */
export const EXPECTED_ROUTE_ACCESS: Record<string, Access> = {
  // Point 7's sign-in calls and the open screens of point 2 (/login, /apply, reset-password):
  // reached before signing in, or with an expired access token (refresh).
  'POST /api/login': OPEN,
  'POST /api/refreshToken': OPEN,
  'POST /api/jwt/register': OPEN,
  'POST /api/resetPassword': OPEN,
  'POST /api/jwt/logout': SIGNED_IN,
  // The signed-in user's own data: who am I, personal settings, the message centre, about us.
  'GET /api/me': SIGNED_IN,
  'PATCH /api/me/profile': SIGNED_IN,
  'POST /api/me/password': SIGNED_IN,
  // Person settings' session list (issue 32, finding 8): one's own sessions only.
  'GET /api/me/sessions': SIGNED_IN,
  // Person settings' git identities (issue 34): one's own names and e-mail addresses.
  'GET /api/me/gitIdentities': SIGNED_IN,
  'PUT /api/me/gitIdentities': SIGNED_IN,
  'DELETE /api/me/sessions/:id': SIGNED_IN,
  'POST /api/me/sessions/revokeOthers': SIGNED_IN,
  'GET /api/notifications': SIGNED_IN,
  'POST /api/notifications/readAll': SIGNED_IN,
  'POST /api/notifications/:id/read': SIGNED_IN,
  'POST /api/notifications/:id/hide': SIGNED_IN,
  'GET /api/about': SIGNED_IN,
  // Grades, edition, judgment flag: every screen reads them; "visitors get at least read on Auth".
  'GET /api/settings': read('Auth'),
  // /system/systemSetting
  'PATCH /api/settings': update('Setting'),
  // /system/userList (a reset link is a change to the user)
  'GET /api/users': read('User'),
  'POST /api/users': create('User'),
  'PATCH /api/users/:id': update('User'),
  'POST /api/users/:id/resetLink': update('User'),
  'GET /api/users/:id/gitIdentities': read('User'),
  'PUT /api/users/:id/gitIdentities': update('User'),
  // /system/roleList
  'GET /api/roles': read('Role'),
  'POST /api/roles': create('Role'),
  'PATCH /api/roles/:id': update('Role'),
  'DELETE /api/roles/:id': remove('Role'),
  // /system/applyList: access requests are approved or rejected by whoever may change them
  'GET /api/applications': read('Apply'),
  'POST /api/applications/:id/approve': update('Apply'),
  'POST /api/applications/:id/reject': update('Apply'),
  // The audit log of every administrative change
  'GET /api/auditLogs': read('AuditLog'),
  // /system/teamList
  'GET /api/teams': read('Team'),
  'GET /api/teams/:id': read('Team'),
  'POST /api/teams': create('Team'),
  'PATCH /api/teams/:id': update('Team'),
  'DELETE /api/teams/:id': remove('Team'),
  // /system/appList (the ingestion token, the repository test and the agents belong to the app)
  'GET /api/apps': read('App'),
  'GET /api/apps/:id': read('App'),
  'POST /api/apps': create('App'),
  'PATCH /api/apps/:id': update('App'),
  'POST /api/apps/:id/rotateToken': update('App'),
  'POST /api/apps/:id/testConnection': update('App'),
  'DELETE /api/apps/:id': remove('App'),
  'GET /api/apps/:id/agents': read('App'),
  // /system/branchList (branches come from the repository: no create nor delete)
  'GET /api/branches': read('Branch'),
  'PATCH /api/branches/:id': update('Branch'),
  'POST /api/apps/:id/refreshBranches': update('Branch'),
  // /system/projectList
  'GET /api/projects': read('Project'),
  'GET /api/projects/:id': read('Project'),
  'POST /api/projects': create('Project'),
  'PATCH /api/projects/:id': update('Project'),
  'DELETE /api/projects/:id': remove('Project'),
  // /system/versionList
  'GET /api/versions': read('Version'),
  'GET /api/versions/:id': read('Version'),
  'POST /api/versions': create('Version'),
  'PATCH /api/versions/:id': update('Version'),
  'DELETE /api/versions/:id': remove('Version'),
  // /system/requirementhList (hidden by the Lite edition, point 6)
  'GET /api/requirements': read('Requirement'),
  'GET /api/requirements/:id': read('Requirement'),
  'POST /api/requirements': create('Requirement'),
  'PATCH /api/requirements/:id': update('Requirement'),
  'DELETE /api/requirements/:id': remove('Requirement'),
  // /system/caseList (with its CSV import)
  // /zentao (point 2, an external tool screen whose route reads requirements): the screen's status for
  // whoever may open it; ZenTao's account and imports are the administrator's, as every system setting.
  'GET /api/zentao': read('Requirement'),
  'GET /api/zentao/config': update('Setting'),
  'PATCH /api/zentao/config': update('Setting'),
  'POST /api/zentao/import': update('Setting'),
  'GET /api/cases': read('Case'),
  'GET /api/cases/:id': read('Case'),
  'POST /api/cases': create('Case'),
  'POST /api/cases/import': create('Case'),
  'PATCH /api/cases/:id': update('Case'),
  'DELETE /api/cases/:id': remove('Case'),
  // /otel/otel: trace search and a trace's spans (point 6's Trace resource, advanced edition).
  'GET /api/traces': read('Trace'),
  'GET /api/traces/:traceId': read('Trace'),
  // Opening a trace in the viewer (point 2, port 5173) hands the reader's session to that port.
  'POST /api/traces/viewer-session': read('Trace'),
  // Interface analytics (/otel/interfaceAnalytic and /{id}).
  'GET /api/traces/interfaces': read('InterfaceAnalytic'),
  'GET /api/traces/interface': read('InterfaceAnalytic'),
  // Regression runs (/otel/regression and /{id}); making one stores it.
  'GET /api/traces/regressions': read('Regression'),
  'POST /api/traces/regressions': create('Regression'),
  'GET /api/traces/regressions/:id': read('Regression'),
  // Coverage intake: uploads and agents' heart-beats come from CI and test environments with an
  // app's ingestion token (the route checks it, or a user's token); the upload list is a report read.
  'POST /api/coverage/uploads': OPEN,
  'POST /api/coverage/agents/heartbeat': OPEN,
  // Class files for JaCoCo execution data (issue 38): sent by agents with the same credentials.
  'POST /api/coverage/class-sets': OPEN,
  'POST /api/coverage/class-files': OPEN,
  'GET /api/coverage/uploads': read('Report'),
  // Report progress on the message centre: published by whoever may make reports, read per report.
  // Publishing is the server's, an agent's (its app's ingestion token, its app's reports only) or an
  // administrator's (issue 32, finding 4): the route checks which of them calls, as the uploads do.
  'POST /api/messages': OPEN,
  'GET /api/messages': read('Report'),
  'GET /api/messages/heartbeats': read('Report'),
  // /dashboard/coverageAdd, /dashboard/coverageEdit/{id}
  'POST /api/reports': create('Report'),
  'PATCH /api/reports/:id': update('Report'),
  'DELETE /api/reports/:id': remove('Report'),
  // Point 7's three report calls and the report view's files and source (/codecoverage/{id})
  'POST /api/searchReports': read('Report'),
  'GET /api/getReport': read('Report'),
  'GET /api/getReportDetails': read('Report'),
  'GET /api/reports/:id/files': read('Report'),
  'GET /api/reports/:id/source': read('Report'),
  // /dashboard/app (the team-wide view checks TeamDashboard inside)
  'GET /api/dashboard': read('AppDashboard'),
  // Analytics (issue 35): each read gated by the resource of the screen it feeds.
  'GET /api/analytics/apps': read('Analytics'),
  'GET /api/analytics/apps/overview': read('Analytics'),
  'GET /api/analytics/committers': read('Analytics'),
  'GET /api/analytics/committers/trend': read('Analytics'),
  'GET /api/analytics/projects': read('Analytics'),
  'GET /api/analytics/versions': read('Analytics'),
  'GET /api/analytics/mine': read('Analytics'),
  'GET /api/analytics/cockpit': read('Cockpit'),
  // Requirement analytics is the requirement screen's (hidden in the lite edition, point 6); case analytics is analytics.
  'GET /api/analytics/requirements': read('Requirement'),
  'GET /api/analytics/cases': read('Analytics'),
  'GET /api/analytics/cases/methods': read('Analytics'),
  'GET /api/analytics/cases/impact': read('Analytics'),
  'GET /api/analytics/projects/:id': read('ProjectDashboard'),
  // Risks (issue 34): read as the reports they come from (point 6); asking for a decision is open to
  // every reader; judging is checked per item inside (the author, the team's testers, update Risk).
  'GET /api/risks': read('Report'),
  'GET /api/risks/headline': read('Report'),
  'GET /api/risks/treemap': read('Report'),
  'GET /api/risks/:id/history': read('Report'),
  'POST /api/risks/ask-decision': read('Report'),
  'POST /api/risks/:id/judgment': read('Report'),
  'GET /api/risks/:id/assignees': read('Report'),
};
