import type { Screen, ScreenName } from '@sextant/api';
import type { ComponentType } from 'react';

export type ScreenComponent = ComponentType<{ screen: Screen }>;
type Importer = () => Promise<{ default: ScreenComponent }>;

const pending: Importer = () => import('../features/misc/PendingScreen.tsx');

/** Each screen is its own lazily loaded chunk; screens later issues fill show an honest empty state. */
const IMPORTERS: Partial<Record<ScreenName, Importer>> = {
  'auth-login': () => import('../features/auth/LoginPage.tsx'),
  'auth-apply': () => import('../features/auth/ApplyPage.tsx'),
  'auth-reset-password': () => import('../features/auth/ResetPasswordPage.tsx'),
  'error-404': () => import('../features/misc/NotFoundPage.tsx'),
  'misc-not-authorized': () => import('../features/misc/NotAuthorizedPage.tsx'),
  'access-control': () => import('../features/misc/AccessControlPage.tsx'),
  'system-user-list': () => import('../features/users/UserListPage.tsx'),
  'system-setting': () => import('../features/settings/SystemSettingPage.tsx'),
  'system-person-setting': () => import('../features/person/PersonSettingPage.tsx'),
  'system-role-list': () => import('../features/roles/RoleListPage.tsx'),
  'system-apply-list': () => import('../features/applications/ApplyListPage.tsx'),
  'system-team-list': () => import('../features/teams/TeamListPage.tsx'),
  'system-app-list': () => import('../features/apps/AppListPage.tsx'),
  'system-project-list': () => import('../features/projects/ProjectListPage.tsx'),
  'system-version-list': () => import('../features/versions/VersionListPage.tsx'),
  'system-requirement-list': () => import('../features/requirements/RequirementListPage.tsx'),
  'system-branch-list': () => import('../features/branches/BranchListPage.tsx'),
  'system-case-list': () => import('../features/cases/CaseListPage.tsx'),
  'system-trace-manage': () => import('../features/traces/TraceManagePage.tsx'),
  'otel-trace': () => import('../features/traces/TraceSearchPage.tsx'),
  'otel-regression': () => import('../features/traces/RegressionListPage.tsx'),
  'otel-regression-detail': () => import('../features/traces/RegressionDetailPage.tsx'),
  'otel-interface-analytic': () => import('../features/traces/InterfaceListPage.tsx'),
  'otel-interface-analytic-detail': () => import('../features/traces/InterfaceDetailPage.tsx'),
  'system-audit-log': () => import('../features/audit/AuditLogPage.tsx'),
  'system-about-us': () => import('../features/about/AboutPage.tsx'),
  'dashboard-dev-coverage': () => import('../features/reports/ReportListPage.tsx'),
  'dashboard-test-coverage': () => import('../features/reports/ReportListPage.tsx'),
  'dashboard-coverage-add': () => import('../features/reports/ReportFormPage.tsx'),
  'dashboard-coverage-edit': () => import('../features/reports/ReportFormPage.tsx'),
  'dashboard-coverage-detail': () => import('./routes/ReportDetailScreen.tsx'),
  'dashboard-code-coverage-view': () => import('../features/reports/CodeCoveragePage.tsx'),
  'dashboard-team': () => import('../features/dashboards/DashboardPage.tsx'),
  'dashboard-app': () => import('../features/dashboards/DashboardPage.tsx'),
  'dashboard-observing-risky-items': () => import('../features/risks/ObservingRisksPage.tsx'),
  'dashboard-pending-risks': () => import('../features/risks/PendingRisksPage.tsx'),
  'dashboard-my-analytic': () => import('./routes/MyAnalyticScreen.tsx'),
  'dashboard-exception-traces': () => import('../features/risks/ExceptionTracesPage.tsx'),
  'dashboard-app-analytic': () => import('../features/analytics/AppAnalyticPage.tsx'),
  'dashboard-committer-analytic': () => import('../features/analytics/CommitterAnalyticPage.tsx'),
  'dashboard-committer-analytic-table': () => import('../features/analytics/CommitterTablePage.tsx'),
  'dashboard-requirement-analytic': () => import('../features/analytics/RequirementAnalyticPage.tsx'),
  'dashboard-case-analytic': () => import('../features/analytics/CaseAnalyticPage.tsx'),
  'dashboard-project-analytic': () => import('../features/analytics/GroupAnalyticPage.tsx'),
  'dashboard-version-analytic': () => import('../features/analytics/GroupAnalyticPage.tsx'),
  'dashboard-cockpit': () => import('../features/analytics/CockpitPage.tsx'),
  'dashboard-project-dashboard': () => import('../features/analytics/GroupAnalyticPage.tsx'),
  'dashboard-project-dashboard-detail': () => import('../features/analytics/ProjectDashboardPage.tsx'),
  'external-zentao': () => import('../features/zentao/ZentaoPage.tsx'),
};

export function importerFor(name: string): Importer {
  return IMPORTERS[name as ScreenName] ?? pending;
}
