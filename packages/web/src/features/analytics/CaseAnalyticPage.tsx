import {
  CASE_ANALYTIC_SORTS,
  type CaseAnalyticQuery,
  type CaseAnalyticRow,
  type CaseImpact,
  type MethodRef,
  type Screen,
} from '@sextant/api';
import { Button, Card, Col, Empty, List, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useState } from 'react';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { methodLabel, useJvmWords } from '../../lib/jvm-words.ts';
import { tableLoading } from '../../lib/table-loading.ts';
import { pageAndSort } from '../../lib/table-paging.ts';
import { getCaseAnalytics, useCaseAnalytics, useCaseImpact, useCaseMethods } from './api/get-case-analytics.ts';
import { casesTexts } from './cases-texts.ts';
import { ChartCard } from './components/ChartCard.tsx';
import { plain } from './components/echarts.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { download, toCsv } from './csv.ts';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';

type SortBy = CaseAnalyticQuery['sortBy'];
const isSort = (v: string | undefined): v is SortBy => (CASE_ANALYTIC_SORTS as readonly string[]).includes(v ?? '');
type Rerun = CaseImpact['reruns'][number];
type Gap = CaseImpact['gaps']['items'][number];
const GAPS_PER_PAGE = 10;

/** One case's lists, read when its row opens. */
function CaseDetails({ row, filter }: { row: CaseAnalyticRow; filter: ReturnType<typeof useAnalyticsUrl>['filter'] }) {
  const t = useTexts(casesTexts);
  const words = useJvmWords();
  const methods = useCaseMethods(filter, row.appId, row.caseKey);
  const list = (title: string, items: MethodRef[] | undefined) => (
    <Col xs={24} xl={12}>
      <Typography.Text strong>{title}</Typography.Text>
      <List
        size="small"
        loading={methods.isLoading}
        dataSource={items ?? []}
        locale={{ emptyText: t.none }}
        renderItem={(m) => (
          <List.Item>
            <Typography.Text code>{methodLabel(m, words)}</Typography.Text>{' '}
            <Typography.Text type="secondary">{m.filePath}</Typography.Text>
          </List.Item>
        )}
      />
    </Col>
  );
  return (
    <Row gutter={[16, 8]}>
      {list(t.aloneMethods, methods.data?.alone)}
      {list(fill(t.changedOf, { version: methods.data?.latestVersion ?? '—' }), methods.data?.changed)}
    </Row>
  );
}

/** /dashboard/caseAnalytic: what each test case covers, and for a version the cases to re-run and its test gaps. */
export default function CaseAnalyticPage({ screen }: { screen: Screen }) {
  const t = useTexts(casesTexts);
  const words = useJvmWords();
  const a = useTexts(analyticsTexts);
  const { formatDate, formatNumber } = useLocale();
  const url = useAnalyticsUrl();
  const sortBy: SortBy = isSort(url.sortBy) ? url.sortBy : 'caseKey';
  const paging = { page: url.page, perPage: url.perPage, sortBy, sortDesc: url.sortDesc };
  const cases = useCaseAnalytics(url.filter, paging);
  const [gapPage, setGapPage] = useState(1);
  const impact = useCaseImpact(url.filter, { page: gapPage, perPage: GAPS_PER_PAGE });
  const [exporting, setExporting] = useState(false);
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
  const exportAll = async () => {
    setExporting(true);
    try {
      const all: CaseAnalyticRow[] = [];
      for (let page = 1; ; page++) {
        const next = await getCaseAnalytics(url.filter, { ...paging, page, perPage: 500 });
        all.push(...next.items);
        if (all.length >= next.total || next.items.length === 0) break;
      }
      download('cases.csv', toCsv(header, all.map(csvRow)));
    } finally {
      setExporting(false);
    }
  };
  const reruns = impact.data?.reruns ?? [];
  const label = (r: Rerun) => plain(`${r.caseKey} (${r.appName})`);
  const bars = {
    animation: false,
    grid: { left: 180, right: 24, top: 16, bottom: 24 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: reruns.map(label) },
    series: [{ name: t.reached, type: 'bar', color: '#ff9f43', barMaxWidth: 28, data: reruns.map((r) => r.reached) }],
  };
  const versions = (impact.data?.versions ?? []).map((v) => `${v.appName} ${v.version}`).join(', ');
  const changed = impact.data?.changedMethods ?? 0;
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
      {impact.data && impact.data.versions.length > 0 && (
        <Card size="small" title={fill(t.impactOf, { versions })}>
          <Space size={48} wrap>
            <Statistic title={t.changedTotal} value={changed} />
            <Statistic title={t.reachedTotal} value={impact.data.reachedMethods} />
            <Statistic
              title={t.gapTotal}
              value={impact.data.gaps.total}
              valueStyle={{ color: impact.data.gaps.total > 0 ? '#ea5455' : '#28c76f' }}
            />
            <Statistic
              title={t.reachedShare}
              valueRender={() => <Grade value={changed ? (changed - impact.data.gaps.total) / changed : null} />}
            />
          </Space>
        </Card>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          {reruns.length === 0 && impact.isSuccess ? (
            <Card size="small" title={t.rerunChart}>
              <Empty description={t.noRerun} />
            </Card>
          ) : (
            <ChartCard<Rerun>
              title={t.rerunChart}
              name="cases-to-rerun"
              option={bars}
              height={Math.max(220, reruns.length * 28 + 50)}
              table={{
                rows: reruns,
                rowKey: (r) => `${r.appId}|${r.caseKey}`,
                columns: [
                  { key: 'c', title: t.case, dataIndex: 'caseKey' },
                  { key: 't', title: t.title, render: (_, r) => r.title ?? '' },
                  { key: 'a', title: t.app, dataIndex: 'appName' },
                  { key: 'r', title: t.reached, dataIndex: 'reached', align: 'right' },
                ],
                csv: {
                  header: [t.case, t.title, t.app, t.reached],
                  row: (r) => [r.caseKey, r.title ?? '', r.appName, r.reached],
                },
              }}
            />
          )}
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t.gaps}>
            <Table<Gap>
              size="small"
              rowKey={(g) => `${g.appName}|${g.filePath}|${g.className}|${g.method}`}
              loading={tableLoading(impact)}
              dataSource={impact.data?.gaps.items ?? []}
              locale={{ emptyText: t.gapsNone }}
              pagination={{
                current: gapPage,
                pageSize: GAPS_PER_PAGE,
                total: impact.data?.gaps.total ?? 0,
                onChange: setGapPage,
              }}
              columns={[
                {
                  key: 'm',
                  title: t.method,
                  render: (_, g) => (
                    <Space direction="vertical" size={0} style={{ wordBreak: 'break-all' }}>
                      <Typography.Text code>{methodLabel(g, words)}</Typography.Text>
                      <Typography.Text type="secondary">{g.filePath}</Typography.Text>
                    </Space>
                  ),
                },
                { key: 'a', title: t.app, dataIndex: 'appName' },
                { key: 'v', title: t.version, dataIndex: 'version' },
                {
                  key: 's',
                  title: t.changeStatus,
                  render: (_, g) =>
                    g.changeStatus ? <Tag>{g.changeStatus === 'added' ? t.added : t.modified}</Tag> : null,
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
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
