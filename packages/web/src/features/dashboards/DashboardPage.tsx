import { PATHS, type Report, type Screen, screenByName } from '@sextant/api';
import { Alert, Card, Col, Empty, Row, Select, Space, Spin, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useDashboard } from './api/get-dashboard.ts';
import { AppCoverageCard } from './components/AppCoverageCard.tsx';
import { useLiveDashboard } from './components/useLiveDashboard.ts';
import { dashboardTexts } from './texts.ts';

const detailPath = (id: string) =>
  screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));

function StepTag({ status }: { status: string }) {
  const t = useTexts(dashboardTexts);
  const values = { status, label: (t.steps as Record<string, string>)[status] ?? status };
  return (
    <Tooltip title={fill(t.stepHint, values)}>
      <Tag color="processing">{fill(t.stepTag, values)}</Tag>
    </Tooltip>
  );
}

function RunningReports({ reports }: { reports: Report[] }) {
  const t = useTexts(dashboardTexts);
  return (
    <Table<Report>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={reports}
      locale={{ emptyText: t.noneRunning }}
      columns={[
        { key: 'name', title: t.report, render: (_, r) => <Link to={detailPath(r.id)}>{r.name}</Link> },
        { key: 'app', title: t.app, dataIndex: 'appName' },
        { key: 'version', title: t.version, dataIndex: 'newVersion' },
        { key: 'status', title: t.step, render: (_, r) => <StepTag status={r.status} /> },
      ]}
    />
  );
}

/** /dashboard/team (one team or all) and /dashboard/app (one app): coverage at a glance. */
export default function DashboardPage({ screen }: { screen: Screen }) {
  const byApp = screen.name === 'dashboard-app';
  const t = useTexts(dashboardTexts);
  const title = useScreenTitle(screen);
  const errorMessage = useErrorMessage();
  const [params, setParams] = useSearchParams();
  const teams = useNamedOptions(PATHS.teams, !byApp);
  const apps = useNamedOptions(PATHS.apps, byApp);
  const teamId = params.get('teamId') ?? undefined;
  const appId = params.get('appId') ?? (byApp ? apps[0]?.value : undefined);
  const scope = byApp ? { appId } : { teamId };
  const dashboard = useDashboard(scope, !byApp || Boolean(appId));
  useLiveDashboard();

  const choose = (key: 'teamId' | 'appId', value: string | undefined) =>
    setParams(value ? { [key]: value } : {}, { replace: true });
  const data = dashboard.data;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          {byApp ? (
            <Select
              showSearch
              optionFilterProp="label"
              aria-label={t.app}
              placeholder={t.chooseApp}
              style={{ width: 240 }}
              options={apps}
              value={appId}
              onChange={(v: string) => choose('appId', v)}
            />
          ) : (
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              aria-label={t.team}
              placeholder={t.allTeams}
              style={{ width: 240 }}
              options={teams}
              value={teamId}
              onChange={(v: string | undefined) => choose('teamId', v)}
            />
          )}
        </Space>
      </Card>
      {dashboard.error && <Alert type="error" showIcon message={errorMessage(dashboard.error)} />}
      {byApp && apps.length === 0 && !dashboard.isFetching && <Empty description={t.noApp} />}
      {dashboard.isPending && dashboard.fetchStatus !== 'idle' && <Spin size="large" />}
      {data && (
        <>
          <Row gutter={16}>
            <Col xs={8}>
              <Card size="small">
                <Statistic title={t.apps} value={new Set(data.apps.map((a) => a.appId)).size} />
              </Card>
            </Col>
            <Col xs={8}>
              <Card size="small">
                <Statistic title={t.reportsRunning} value={data.running.length} />
              </Card>
            </Col>
            <Col xs={8}>
              <Card size="small">
                <Statistic
                  title={t.openRisks}
                  value={data.openRisks}
                  valueStyle={{ color: data.openRisks > 0 ? '#ea5455' : undefined }}
                />
              </Card>
            </Col>
          </Row>
          {data.running.length > 0 && (
            <Card title={t.runningNow} size="small">
              <RunningReports reports={data.running} />
            </Card>
          )}
          {data.apps.length === 0 ? (
            <Card>
              <Empty description={t.noneFinished} />
            </Card>
          ) : (
            <Row gutter={[16, 16]}>
              {data.apps.map((s) => (
                <Col key={`${s.appId}:${s.testType}`} xs={24} lg={12} xxl={8}>
                  <AppCoverageCard summary={s} />
                </Col>
              ))}
            </Row>
          )}
        </>
      )}
    </Space>
  );
}
