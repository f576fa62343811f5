import { APP_ANALYTIC_SORTS, type AppAnalyticQuery, type AppVersionRow, type Screen, screenByName } from '@sextant/api';
import { Button, Card, Col, Row, Space, Table, Typography } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { Link } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { pageAndSort } from '../../lib/table-paging.ts';
import { useAppOverview } from './api/get-app-overview.ts';
import { getAppVersions, useAppVersions } from './api/get-app-versions.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { ActivityChart, CoverageTrendChart } from './components/OverviewCharts.tsx';
import { AgentsChart, BurnDownChart } from './components/RiskAndAgentCharts.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';
import { useCsvExport } from './use-csv-export.ts';

type SortBy = AppAnalyticQuery['sortBy'];
const isSort = (v: string | undefined): v is SortBy => (APP_ANALYTIC_SORTS as readonly string[]).includes(v ?? '');
const detail = (id: string) => screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));

/** /dashboard/appAnalytic: per app and version, full and diff coverage by test type, over time, test activity, agents alive and the risk burn-down. */
export default function AppAnalyticPage({ screen }: { screen: Screen }) {
  const t = useTexts(analyticsTexts);
  const { formatDate } = useLocale();
  const url = useAnalyticsUrl();
  const sortBy: SortBy = isSort(url.sortBy) ? url.sortBy : 'finishedAt';
  const sortDesc = url.sortBy ? url.sortDesc : true;
  const paging = { page: url.page, perPage: url.perPage, sortBy, sortDesc };
  const rows = useAppVersions(url.filter, paging);
  const overview = useAppOverview(url.filter);
  const kind = (r: AppVersionRow) => (r.testType === 1 ? t.unit : t.functional);
  const header = [
    t.app,
    t.team,
    t.version,
    t.testType,
    t.fullCoverage,
    t.branchCoverage,
    t.diffCoverage,
    t.changedMethods,
    t.coveredMethods,
    t.reports,
    t.lastReport,
  ];
  const { exporting, exportAll } = useCsvExport(
    'app-versions.csv',
    header,
    (r: AppVersionRow) => [
      r.appName,
      r.teamName,
      r.version,
      kind(r),
      r.lineCoverage,
      r.branchCoverage,
      r.diffLineCoverage,
      r.changedMethods,
      r.coveredMethods,
      r.reports,
      r.finishedAt,
    ],
    (page, perPage) => getAppVersions(url.filter, { ...paging, page, perPage }),
  );
  const order = (key: SortBy): SortOrder => (sortBy === key ? (sortDesc ? 'descend' : 'ascend') : null);
  const coverage = (r: AppVersionRow, key: 'lineCoverage' | 'diffLineCoverage', id: string | null) =>
    id ? (
      <Link to={detail(id)}>
        <Grade value={r[key]} />
      </Link>
    ) : (
      <Grade value={null} />
    );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead screen={screen} error={rows.error ?? overview.error} />
      <FilterBar url={url} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <CoverageTrendChart weeks={overview.data?.trend ?? []} />
        </Col>
        <Col xs={24} xl={12}>
          <ActivityChart days={overview.data?.activity ?? []} uploads={overview.data?.uploads ?? []} />
        </Col>
        <Col xs={24} xl={12}>
          <BurnDownChart burnDown={overview.data?.burnDown} />
        </Col>
        <Col xs={24} xl={12}>
          <AgentsChart agents={overview.data?.agents ?? []} />
        </Col>
      </Row>
      <Card
        size="small"
        title={t.versionRows}
        extra={
          <Button size="small" onClick={exportAll} loading={exporting}>
            {t.csv}
          </Button>
        }
      >
        <Table<AppVersionRow>
          size="small"
          rowKey={(r) => `${r.appId}|${r.version}|${r.testType}`}
          loading={tableLoading(rows)}
          dataSource={rows.data?.items ?? []}
          locale={{ emptyText: t.nothing }}
          pagination={{ current: url.page, pageSize: url.perPage, total: rows.data?.total ?? 0, showSizeChanger: true }}
          onChange={(pagination, _filters, sorter) => url.set(pageAndSort(pagination, sorter, isSort))}
          columns={[
            {
              key: 'appName',
              title: t.app,
              sorter: true,
              sortOrder: order('appName'),
              render: (_, r) => (
                <>
                  {r.appName} <Typography.Text type="secondary">{r.teamName}</Typography.Text>
                </>
              ),
            },
            { key: 'version', title: t.version, dataIndex: 'version', sorter: true, sortOrder: order('version') },
            { key: 'testType', title: t.testType, render: (_, r) => kind(r) },
            {
              key: 'lineCoverage',
              title: t.fullCoverage,
              sorter: true,
              sortOrder: order('lineCoverage'),
              render: (_, r) => coverage(r, 'lineCoverage', r.fullReportId),
            },
            { key: 'branch', title: t.branchCoverage, render: (_, r) => <Grade value={r.branchCoverage} /> },
            {
              key: 'diffLineCoverage',
              title: t.diffCoverage,
              sorter: true,
              sortOrder: order('diffLineCoverage'),
              render: (_, r) => coverage(r, 'diffLineCoverage', r.incrementalReportId),
            },
            {
              key: 'methods',
              title: `${t.coveredMethods} / ${t.changedMethods}`,
              align: 'right',
              render: (_, r) => (r.changedMethods === null ? '—' : `${r.coveredMethods ?? 0} / ${r.changedMethods}`),
            },
            { key: 'reports', title: t.reports, dataIndex: 'reports', align: 'right' },
            {
              key: 'finishedAt',
              title: t.lastReport,
              sorter: true,
              sortOrder: order('finishedAt'),
              render: (_, r) => formatDate(r.finishedAt),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
