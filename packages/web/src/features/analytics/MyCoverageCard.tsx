import { type MyCoverageReport, screenByName } from '@sextant/api';
import { Alert, Empty, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { useMyCoverage } from './api/get-my-coverage.ts';
import { ChartCard } from './components/ChartCard.tsx';
import { pct, plain } from './components/echarts.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';

const detail = (id: string) => screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));

/**
 * `/dashboard/myAnalytic` (issue 34): the signed-in user's changed methods in each latest incremental
 * report, oldest to newest in the chart (changed methods covered and not, method and diff line
 * coverage), newest first in the table; the filters are the analytics screens', in the URL.
 */
export function MyCoverageCard() {
  const t = useTexts(analyticsTexts);
  const { formatPercent, formatDate } = useLocale();
  const errorText = useErrorMessage();
  const url = useAnalyticsUrl();
  const mine = useMyCoverage(url.filter);
  const rows = mine.data?.reports ?? [];
  const timeline = [...rows].reverse();
  const testType = (r: MyCoverageReport) => (r.testType === 2 ? t.functionalShort : t.unitShort);
  const label = (r: MyCoverageReport) => plain(`${r.appName} ${r.version} (${testType(r)})`);
  const option = {
    animation: false,
    grid: { left: 48, right: 56, top: 48, bottom: 64 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: timeline.map(label), axisLabel: { rotate: 20, hideOverlap: true } },
    yAxis: [
      { type: 'value', minInterval: 1, name: t.changedMethods, nameTextStyle: { align: 'left' } },
      {
        type: 'value',
        min: 0,
        max: 100,
        axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0) },
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: t.uncoveredMethods,
        type: 'bar',
        stack: 'm',
        color: '#ea5455',
        data: timeline.map((r) => r.changedMethods - r.coveredMethods),
      },
      {
        name: t.coveredMethods,
        type: 'bar',
        stack: 'm',
        color: '#28c76f',
        data: timeline.map((r) => r.coveredMethods),
      },
      {
        name: t.methodCoverage,
        type: 'line',
        yAxisIndex: 1,
        connectNulls: true,
        color: '#7367f0',
        data: timeline.map((r) => pct(r.methodCoverage)),
      },
      {
        name: t.diffCoverage,
        type: 'line',
        yAxisIndex: 1,
        connectNulls: true,
        color: '#00cfe8',
        data: timeline.map((r) => pct(r.lineCoverage)),
      },
    ],
  };
  const identities = mine.data?.identities ?? [];
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <FilterBar url={url} />
      {mine.error && <Alert type="error" showIcon message={errorText(mine.error)} />}
      <Typography.Text type="secondary">
        {fill(t.mineMatched, { identities: identities.join(', ') || '—' })}{' '}
        <Link to={screenByName('system-person-setting').path}>{t.mineIdentitiesLink}</Link>
      </Typography.Text>
      {mine.isSuccess && rows.length === 0 ? (
        <Empty description={t.mineNothing} />
      ) : (
        <ChartCard<MyCoverageReport>
          title={t.mineTitle}
          name="my-changed-methods"
          option={option}
          height={320}
          table={{
            rows,
            rowKey: (r) => r.reportId,
            columns: [
              { key: 'at', title: t.lastReport, render: (_, r) => formatDate(r.at) },
              {
                key: 'r',
                title: t.mineReport,
                render: (_, r) => <Link to={detail(r.reportId)}>{`${r.appName} ${r.version}`}</Link>,
              },
              { key: 'tt', title: t.testType, render: (_, r) => testType(r) },
              { key: 'env', title: t.environment, dataIndex: 'envType' },
              { key: 'c', title: t.changedMethods, dataIndex: 'changedMethods', align: 'right' },
              { key: 'cv', title: t.coveredMethods, dataIndex: 'coveredMethods', align: 'right' },
              { key: 'm', title: t.methodCoverage, render: (_, r) => <Grade value={r.methodCoverage} /> },
              { key: 'l', title: t.diffCoverage, render: (_, r) => <Grade value={r.lineCoverage} /> },
            ],
            csv: {
              header: [
                t.lastReport,
                t.app,
                t.version,
                t.testType,
                t.environment,
                t.changedMethods,
                t.coveredMethods,
                t.methodCoverage,
                t.diffCoverage,
              ],
              row: (r) => [
                r.at,
                r.appName,
                r.version,
                r.testType,
                r.envType,
                r.changedMethods,
                r.coveredMethods,
                r.methodCoverage,
                r.lineCoverage,
              ],
            },
          }}
        />
      )}
    </Space>
  );
}
