import type { AppStanding, AppVersionRow, Screen } from '@sextant/api';
import { Card, Col, Row, Space, Statistic, Table } from 'antd';
import { useParams } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { useProjectDashboard } from './api/get-project-dashboard.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';

/** /dashboard/projectDashboard/{id}: one project's figures, its apps' latest standing and its versions. */
export default function ProjectDashboardPage({ screen }: { screen: Screen }) {
  const t = useTexts(analyticsTexts);
  const { formatDate } = useLocale();
  const { id = '' } = useParams();
  const url = useAnalyticsUrl();
  const dashboard = useProjectDashboard(id, url.filter);
  const data = dashboard.data;
  const kind = (testType: 1 | 2) => (testType === 1 ? t.unit : t.functional);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead screen={screen} error={dashboard.error} extra={data?.project.name} />
      <FilterBar url={url} hide={['projectId', 'teamId']} />
      {data && (
        <>
          <Row gutter={16}>
            {[
              [t.unitLine, data.project.unitLineCoverage],
              [t.functionalLine, data.project.functionalLineCoverage],
              [t.diffCoverage, data.project.diffLineCoverage],
            ].map(([label, value]) => (
              <Col xs={6} key={String(label)}>
                <Card size="small">
                  <Statistic title={label} valueRender={() => <Grade value={value as number | null} size={24} />} />
                </Card>
              </Col>
            ))}
            <Col xs={6}>
              <Card size="small">
                <Statistic
                  title={`${t.coveredMethods} / ${t.changedMethods}`}
                  value={`${data.project.coveredMethods} / ${data.project.changedMethods}`}
                />
              </Card>
            </Col>
          </Row>
          <Card size="small" title={t.projectApps}>
            <Table<AppStanding>
              size="small"
              pagination={false}
              rowKey={(s) => `${s.appId}:${s.testType}`}
              dataSource={data.standings}
              locale={{ emptyText: t.nothing }}
              columns={[
                { key: 'a', title: t.app, dataIndex: 'appName' },
                { key: 't', title: t.testType, render: (_, s) => kind(s.testType) },
                { key: 'v', title: t.version, dataIndex: 'version' },
                { key: 'l', title: t.fullCoverage, render: (_, s) => <Grade value={s.lineCoverage} /> },
                { key: 'd', title: t.diffCoverage, render: (_, s) => <Grade value={s.diffLineCoverage} /> },
              ]}
            />
          </Card>
          <Card size="small" title={t.latestReports}>
            <Table<AppVersionRow>
              size="small"
              pagination={{ pageSize: 10 }}
              rowKey={(r) => `${r.appId}|${r.version}|${r.testType}`}
              dataSource={data.versions}
              locale={{ emptyText: t.nothing }}
              columns={[
                { key: 'a', title: t.app, dataIndex: 'appName' },
                { key: 'v', title: t.version, dataIndex: 'version' },
                { key: 't', title: t.testType, render: (_, r) => kind(r.testType) },
                { key: 'l', title: t.fullCoverage, render: (_, r) => <Grade value={r.lineCoverage} /> },
                { key: 'd', title: t.diffCoverage, render: (_, r) => <Grade value={r.diffLineCoverage} /> },
                { key: 'f', title: t.lastReport, render: (_, r) => formatDate(r.finishedAt) },
              ]}
            />
          </Card>
        </>
      )}
    </Space>
  );
}
