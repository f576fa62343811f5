import {
  REQUIREMENT_ANALYTIC_SORTS,
  type RequirementAnalyticQuery,
  type RequirementAnalyticRow,
  type Screen,
} from '@sextant/api';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { pageAndSort } from '../../lib/table-paging.ts';
import { getRequirementAnalytics, useRequirementAnalytics } from './api/get-requirement-analytics.ts';
import { casesTexts } from './cases-texts.ts';
import { ChartCard } from './components/ChartCard.tsx';
import { pct, plain } from './components/echarts.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { RequirementDetails } from './RequirementDetails.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';
import { useCsvExport } from './use-csv-export.ts';

type SortBy = RequirementAnalyticQuery['sortBy'];
const isSort = (v: string | undefined): v is SortBy =>
  (REQUIREMENT_ANALYTIC_SORTS as readonly string[]).includes(v ?? '');

/** Covered / measured with the grade colour, or "—" where no report of the test type measured a method. */
function Covered({ covered, measured, value }: { covered: number; measured: number; value: number | null }) {
  return (
    <Space size={4}>
      <Grade value={value} />
      {measured > 0 && (
        <Typography.Text type="secondary">
          {covered}/{measured}
        </Typography.Text>
      )}
    </Space>
  );
}

/** /dashboard/requirementAnalytic: is each requirement tested? Its commits, changed methods, cases and risks. */
export default function RequirementAnalyticPage({ screen }: { screen: Screen }) {
  const t = useTexts(casesTexts);
  const a = useTexts(analyticsTexts);
  const { formatPercent } = useLocale();
  const url = useAnalyticsUrl();
  const sortBy: SortBy = isSort(url.sortBy) ? url.sortBy : 'key';
  const paging = { page: url.page, perPage: url.perPage, sortBy, sortDesc: url.sortDesc };
  const answer = useRequirementAnalytics(url.filter, paging);
  const rows = answer.data?.items ?? [];
  const header = [
    t.requirement,
    t.title,
    t.commits,
    t.changedMethods,
    `${t.unitCoverage} (${t.covered})`,
    t.unitCoverage,
    `${t.functionalCoverage} (${t.covered})`,
    t.functionalCoverage,
    t.casesRun,
    t.openRisks,
  ];
  const csvRow = (r: RequirementAnalyticRow) => [
    r.key,
    r.title ?? '',
    r.commits.length,
    r.changedMethods,
    r.unitCovered,
    r.unitCoverage,
    r.functionalCovered,
    r.functionalCoverage,
    `${r.casesRun}/${r.cases.length}`,
    r.openRisks,
  ];
  const { exporting, exportAll } = useCsvExport('requirements.csv', header, csvRow, (page, perPage) =>
    getRequirementAnalytics(url.filter, { ...paging, page, perPage }),
  );
  const chart = {
    animation: false,
    grid: { left: 48, right: 16, top: 36, bottom: 48 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: rows.map((r) => plain(r.key)), axisLabel: { rotate: rows.length > 8 ? 30 : 0 } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0) } },
    series: [
      { name: t.unitCoverage, type: 'bar', color: '#7367f0', data: rows.map((r) => pct(r.unitCoverage)) },
      { name: t.functionalCoverage, type: 'bar', color: '#00bad1', data: rows.map((r) => pct(r.functionalCoverage)) },
    ],
  };
  const order = (key: SortBy): SortOrder => (sortBy === key ? (url.sortDesc ? 'descend' : 'ascend') : null);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead
        screen={screen}
        error={answer.error}
        extra={
          <Button onClick={exportAll} loading={exporting}>
            {a.csv}
          </Button>
        }
      />
      <FilterBar url={url} />
      {rows.length > 0 && (
        <ChartCard<RequirementAnalyticRow>
          title={t.requirementChart}
          name="requirements"
          option={chart}
          table={{
            rows,
            rowKey: (r) => r.key,
            columns: [
              { key: 'k', title: t.requirement, dataIndex: 'key' },
              { key: 'c', title: t.changedMethods, dataIndex: 'changedMethods', align: 'right' },
              { key: 'u', title: t.unitCoverage, render: (_, r) => <Grade value={r.unitCoverage} /> },
              { key: 'f', title: t.functionalCoverage, render: (_, r) => <Grade value={r.functionalCoverage} /> },
            ],
            csv: { header, row: csvRow },
          }}
        />
      )}
      <Card size="small">
        <Table<RequirementAnalyticRow>
          size="small"
          rowKey={(r) => r.key}
          loading={tableLoading(answer)}
          dataSource={rows}
          locale={{ emptyText: t.nothing }}
          expandable={{ expandedRowRender: (r) => <RequirementDetails row={r} /> }}
          pagination={{
            current: url.page,
            pageSize: url.perPage,
            total: answer.data?.total ?? 0,
            showSizeChanger: true,
          }}
          onChange={(pagination, _filters, sorter) => url.set(pageAndSort(pagination, sorter, isSort))}
          columns={[
            { key: 'key', title: t.requirement, sorter: true, sortOrder: order('key'), dataIndex: 'key' },
            {
              key: 'title',
              title: t.title,
              render: (_, r) => r.title ?? <Typography.Text type="secondary">{t.notInList}</Typography.Text>,
            },
            { key: 'commits', title: t.commits, align: 'right', render: (_, r) => r.commits.length },
            {
              key: 'changedMethods',
              title: t.changedMethods,
              align: 'right',
              sorter: true,
              sortOrder: order('changedMethods'),
              dataIndex: 'changedMethods',
            },
            {
              key: 'unitCoverage',
              title: t.unitCoverage,
              sorter: true,
              sortOrder: order('unitCoverage'),
              render: (_, r) => <Covered covered={r.unitCovered} measured={r.unitMeasured} value={r.unitCoverage} />,
            },
            {
              key: 'functionalCoverage',
              title: t.functionalCoverage,
              sorter: true,
              sortOrder: order('functionalCoverage'),
              render: (_, r) => (
                <Covered covered={r.functionalCovered} measured={r.functionalMeasured} value={r.functionalCoverage} />
              ),
            },
            {
              key: 'casesRun',
              title: t.casesRun,
              align: 'right',
              sorter: true,
              sortOrder: order('casesRun'),
              render: (_, r) => `${r.casesRun}/${r.cases.length}`,
            },
            {
              key: 'openRisks',
              title: t.openRisks,
              align: 'right',
              sorter: true,
              sortOrder: order('openRisks'),
              render: (_, r) => (r.openRisks > 0 ? <Tag color="error">{r.openRisks}</Tag> : 0),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
