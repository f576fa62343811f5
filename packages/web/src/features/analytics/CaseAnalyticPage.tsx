import { CASE_ANALYTIC_SORTS, type CaseAnalyticQuery, type CaseAnalyticRow, type Screen } from '@sextant/api';
import { Button, Card, Space, Table } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useState } from 'react';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { pageAndSort } from '../../lib/table-paging.ts';
import { getCaseAnalytics, useCaseAnalytics, useCaseImpact } from './api/get-case-analytics.ts';
import { CaseDetails } from './CaseDetails.tsx';
import { CaseImpactPanel, GAPS_PER_PAGE } from './CaseImpactPanel.tsx';
import { casesTexts } from './cases-texts.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';
import { useCsvExport } from './use-csv-export.ts';

type SortBy = CaseAnalyticQuery['sortBy'];
const isSort = (v: string | undefined): v is SortBy => (CASE_ANALYTIC_SORTS as readonly string[]).includes(v ?? '');

/** /dashboard/caseAnalytic: what each test case covers, and for a version the cases to re-run and its test gaps. */
export default function CaseAnalyticPage({ screen }: { screen: Screen }) {
  const t = useTexts(casesTexts);
  const a = useTexts(analyticsTexts);
  const { formatDate, formatNumber } = useLocale();
  const url = useAnalyticsUrl();
  const sortBy: SortBy = isSort(url.sortBy) ? url.sortBy : 'caseKey';
  const paging = { page: url.page, perPage: url.perPage, sortBy, sortDesc: url.sortDesc };
  const cases = useCaseAnalytics(url.filter, paging);
  const [gapPage, setGapPage] = useState(1);
  const impact = useCaseImpact(url.filter, { page: gapPage, perPage: GAPS_PER_PAGE });
  const header = [
    t.case,
    t.title,
    t.app,
    t.runs,
    t.lastRun,
    t.reports,
    t.methods,
    t.alone,
    t.latestVersion,
    t.changedReached,
  ];
  const csvRow = (r: CaseAnalyticRow) => [
    r.caseKey,
    r.title ?? '',
    r.appName,
    r.runs,
    r.lastRunAt,
    r.reports,
    r.methods,
    r.aloneMethods,
    r.latestVersion ?? '',
    r.changedMethods,
  ];
  const { exporting, exportAll } = useCsvExport('cases.csv', header, csvRow, (page, perPage) =>
    getCaseAnalytics(url.filter, { ...paging, page, perPage }),
  );
  const order = (key: SortBy): SortOrder => (sortBy === key ? (url.sortDesc ? 'descend' : 'ascend') : null);
  const num = (key: 'runs' | 'methods' | 'aloneMethods' | 'changedMethods', title: string) => ({
    key,
    title,
    align: 'right' as const,
    sorter: true,
    sortOrder: order(key),
    render: (_: unknown, r: CaseAnalyticRow) => formatNumber(r[key]),
  });
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead
        screen={screen}
        error={cases.error ?? impact.error}
        extra={
          <Button onClick={exportAll} loading={exporting}>
            {a.csv}
          </Button>
        }
      />
      <FilterBar url={url} />
      <CaseImpactPanel impact={impact} gapPage={gapPage} onGapPage={setGapPage} />
      <Card size="small">
        <Table<CaseAnalyticRow>
          size="small"
          rowKey={(r) => `${r.appId}|${r.caseKey}`}
          loading={tableLoading(cases)}
          dataSource={cases.data?.items ?? []}
          locale={{ emptyText: t.casesNothing }}
          expandable={{ expandedRowRender: (r) => <CaseDetails row={r} filter={url.filter} /> }}
          pagination={{
            current: url.page,
            pageSize: url.perPage,
            total: cases.data?.total ?? 0,
            showSizeChanger: true,
          }}
          onChange={(pagination, _filters, sorter) => url.set(pageAndSort(pagination, sorter, isSort))}
          columns={[
            { key: 'caseKey', title: t.case, sorter: true, sortOrder: order('caseKey'), dataIndex: 'caseKey' },
            { key: 'title', title: t.title, render: (_, r) => r.title ?? '' },
            { key: 'app', title: t.app, dataIndex: 'appName' },
            num('runs', t.runs),
            {
              key: 'lastRunAt',
              title: t.lastRun,
              sorter: true,
              sortOrder: order('lastRunAt'),
              render: (_, r) => (r.lastRunAt ? formatDate(r.lastRunAt) : '—'),
            },
            num('methods', t.methods),
            num('aloneMethods', t.alone),
            { key: 'latestVersion', title: t.latestVersion, render: (_, r) => r.latestVersion ?? '—' },
            num('changedMethods', t.changedReached),
          ]}
        />
      </Card>
    </Space>
  );
}
