import { ADMIN_API, type Report, type Screen, screenByName } from '@sextant/api';
import { Alert, Card, Col, Empty, Row, Select, Space, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { useDashboard } from './api/get-dashboard.ts';
import { AppCoverageCard } from './components/AppCoverageCard.tsx';
import { useLiveDashboard } from './components/useLiveDashboard.ts';

const detailPath = (id: string) =>
  screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));

function RunningReports({ reports }: { reports: Report[] }) {
  return (
    <Table<Report>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={reports}
      locale={{ emptyText: 'No report is running.' }}
      columns={[
        { key: 'name', title: 'Report', render: (_, r) => <Link to={detailPath(r.id)}>{r.name}</Link> },
        { key: 'app', title: 'App', dataIndex: 'appName' },
        { key: 'version', title: 'Version', dataIndex: 'newVersion' },
        { key: 'status', title: 'Step', render: (_, r) => <Tag color="processing">{r.status}</Tag> },
      ]}
    />
  );
}

/** /dashboard/team (one team or all) and /dashboard/app (one app): coverage at a glance. */
export default function DashboardPage({ screen }: { screen: Screen }) {
  const byApp = screen.name === 'dashboard-app';
  const [params, setParams] = useSearchParams();
  const teams = useNamedOptions(ADMIN_API.teams, !byApp);
  const apps = useNamedOptions(ADMIN_API.apps, byApp);
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
            {screen.title}
          </Typography.Title>
          {byApp ? (
            <Select
              showSearch
              optionFilterProp="label"
              aria-label="App"
              placeholder="Choose an app"
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
              aria-label="Team"
              placeholder="All teams"
              style={{ width: 240 }}
              options={teams}
              value={teamId}
              onChange={(v: string | undefined) => choose('teamId', v)}
            />
          )}
        </Space>
      </Card>
      {dashboard.error && <Alert type="error" showIcon message={errorMessage(dashboard.error)} />}
      {byApp && apps.length === 0 && !dashboard.isFetching && (
        <Empty description="No app yet. Register one under System › Apps." />
      )}
      {dashboard.isPending && dashboard.fetchStatus !== 'idle' && <Spin size="large" />}
      {data && (
        <>
          <Row gutter={16}>
            <Col xs={8}>
              <Card size="small">
                <Statistic title="Apps" value={new Set(data.apps.map((a) => a.appId)).size} />
              </Card>
            </Col>
            <Col xs={8}>
              <Card size="small">
                <Statistic title="Reports running now" value={data.running.length} />
              </Card>
            </Col>
            <Col xs={8}>
              <Card size="small">
                <Statistic
                  title="Open risk items"
                  value={data.openRisks}
                  valueStyle={{ color: data.openRisks > 0 ? '#ea5455' : undefined }}
                />
              </Card>
            </Col>
          </Row>
          {data.running.length > 0 && (
            <Card title="Running now" size="small">
              <RunningReports reports={data.running} />
            </Card>
          )}
          {data.apps.length === 0 ? (
            <Card>
              <Empty description="No coverage report has finished here yet." />
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
