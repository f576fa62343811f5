import { type CommitterRow, type Screen, screenByName } from '@sextant/api';
import { Col, Empty, Row, Space } from 'antd';
import { Link } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { useCommitterTrend } from './api/get-committer-trend.ts';
import { useCommitters } from './api/get-committers.ts';
import { ChartCard } from './components/ChartCard.tsx';
import { pct, plain } from './components/echarts.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';

const TOP = 15;

/** /dashboard/committerAnalytic: who left changed methods uncovered, and how that moves across versions. */
export default function CommitterAnalyticPage({ screen }: { screen: Screen }) {
  const t = useTexts(analyticsTexts);
  const { formatPercent } = useLocale();
  const url = useAnalyticsUrl();
  const committers = useCommitters(url.filter, { page: 1, perPage: TOP, sortBy: 'uncoveredMethods', sortDesc: true });
  const trend = useCommitterTrend(url.filter);
  const rows = committers.data?.items ?? [];
  const name = (author: string | null) => author ?? t.unknownAuthor;
  const tablePath = `${screenByName('dashboard-committer-analytic-table').path}?${new URLSearchParams(
    Object.entries(url.filter).map(([k, v]) => [k, String(v)]),
  )}`;
  const bars = {
    animation: false,
    grid: { left: 160, right: 16, top: 28, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: rows.map((r) => plain(name(r.author))) },
    series: [
      {
        name: t.uncoveredMethods,
        type: 'bar',
        stack: 'm',
        color: '#ea5455',
        data: rows.map((r) => r.uncoveredMethods),
      },
      { name: t.coveredMethods, type: 'bar', stack: 'm', color: '#28c76f', data: rows.map((r) => r.coveredMethods) },
    ],
  };
  const series = trend.data?.series ?? [];
  const versions = trend.data?.versions ?? [];
  const lines = {
    animation: false,
    grid: { left: 48, right: 16, top: 48, bottom: 24 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: versions.map(plain) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0) } },
    series: series.map((s) => ({
      name: plain(name(s.author)),
      type: 'line',
      connectNulls: true,
      data: s.methodCoverage.map(pct),
    })),
  };
  const trendRows = series.flatMap((s) =>
    versions.map((v, i) => ({ author: s.author, version: v, value: s.methodCoverage[i] ?? null })),
  );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead
        screen={screen}
        error={committers.error ?? trend.error}
        extra={<Link to={tablePath}>{t.committerTableLink}</Link>}
      />
      <FilterBar url={url} />
      {committers.isSuccess && rows.length === 0 ? (
        <Empty description={t.nothing} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            <ChartCard<CommitterRow>
              title={t.uncoveredByCommitter}
              name="committers"
              option={bars}
              height={Math.max(260, rows.length * 26 + 60)}
              table={{
                rows,
                rowKey: (r) => r.author ?? '',
                columns: [
                  { key: 'a', title: t.committer, render: (_, r) => name(r.author) },
                  { key: 'c', title: t.changedMethods, dataIndex: 'changedMethods', align: 'right' },
                  { key: 'u', title: t.uncoveredMethods, dataIndex: 'uncoveredMethods', align: 'right' },
                  { key: 'm', title: t.methodCoverage, render: (_, r) => <Grade value={r.methodCoverage} /> },
                ],
                csv: {
                  header: [t.committer, t.changedMethods, t.coveredMethods, t.uncoveredMethods, t.methodCoverage],
                  row: (r) => [
                    name(r.author),
                    r.changedMethods,
                    r.coveredMethods,
                    r.uncoveredMethods,
                    r.methodCoverage,
                  ],
                },
              }}
            />
          </Col>
          <Col xs={24} xl={12}>
            <ChartCard
              title={t.committerTrend}
              name="committer-trend"
              option={lines}
              height={Math.max(260, rows.length * 26 + 60)}
              table={{
                rows: trendRows,
                rowKey: (r) => `${r.author}|${r.version}`,
                columns: [
                  { key: 'a', title: t.committer, render: (_, r) => name(r.author) },
                  { key: 'v', title: t.version, dataIndex: 'version' },
                  { key: 'm', title: t.methodCoverage, render: (_, r) => <Grade value={r.value} /> },
                ],
                csv: {
                  header: [t.committer, t.version, t.methodCoverage],
                  row: (r) => [name(r.author), r.version, r.value],
                },
              }}
            />
          </Col>
        </Row>
      )}
    </Space>
  );
}
