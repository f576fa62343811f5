import type { ActivityDay, CoverageWeek } from '@sextant/api';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { analyticsTexts } from '../texts.ts';
import { ChartCard } from './ChartCard.tsx';
import { pct } from './echarts.ts';
import { Grade } from './Grade.tsx';

/** Line and diff line coverage by week, per test type. */
export function CoverageTrendChart({ weeks, height }: { weeks: CoverageWeek[]; height?: number }) {
  const t = useTexts(analyticsTexts);
  const { formatPercent } = useLocale();
  const labels = [...new Set(weeks.map((w) => w.week))];
  const of = (testType: 1 | 2, key: 'lineCoverage' | 'diffLineCoverage') =>
    labels.map((week) => pct(weeks.find((w) => w.week === week && w.testType === testType)?.[key] ?? null));
  const kind = (testType: 1 | 2) => (testType === 1 ? t.unitShort : t.functionalShort);
  const option = {
    animation: false,
    grid: { left: 48, right: 16, top: 40, bottom: 24 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0) } },
    series: ([1, 2] as const).flatMap((tt) => [
      { name: `${t.fullCoverage} · ${kind(tt)}`, type: 'line', connectNulls: true, data: of(tt, 'lineCoverage') },
      { name: `${t.diffCoverage} · ${kind(tt)}`, type: 'line', connectNulls: true, data: of(tt, 'diffLineCoverage') },
    ]),
  };
  return (
    <ChartCard<CoverageWeek>
      title={t.coverageOverTime}
      name="coverage-by-week"
      option={option}
      height={height}
      table={{
        rows: weeks,
        rowKey: (w) => `${w.week}:${w.testType}`,
        columns: [
          { key: 'w', title: t.week, dataIndex: 'week' },
          { key: 't', title: t.testType, render: (_, w) => kind(w.testType) },
          { key: 'l', title: t.fullCoverage, render: (_, w) => <Grade value={w.lineCoverage} /> },
          { key: 'd', title: t.diffCoverage, render: (_, w) => <Grade value={w.diffLineCoverage} /> },
          { key: 'n', title: t.reports, dataIndex: 'reports', align: 'right' },
        ],
        csv: {
          header: [t.week, t.testType, t.fullCoverage, t.diffCoverage, t.reports],
          row: (w) => [w.week, w.testType, w.lineCoverage, w.diffLineCoverage, w.reports],
        },
      }}
    />
  );
}

/** Reports finished per day, successful and failed, stacked. */
export function ActivityChart({ days, height }: { days: ActivityDay[]; height?: number }) {
  const t = useTexts(analyticsTexts);
  const option = {
    animation: false,
    grid: { left: 40, right: 16, top: 32, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t.succeeded, type: 'bar', stack: 'r', color: '#28c76f', data: days.map((d) => d.succeeded) },
      { name: t.failed, type: 'bar', stack: 'r', color: '#ea5455', data: days.map((d) => d.failed) },
    ],
  };
  return (
    <ChartCard<ActivityDay>
      title={t.activity}
      name="activity"
      option={option}
      height={height}
      table={{
        rows: days,
        rowKey: (d) => d.day,
        columns: [
          { key: 'd', title: t.day, dataIndex: 'day' },
          { key: 's', title: t.succeeded, dataIndex: 'succeeded', align: 'right' },
          { key: 'f', title: t.failed, dataIndex: 'failed', align: 'right' },
        ],
        csv: { header: [t.day, t.succeeded, t.failed], row: (d) => [d.day, d.succeeded, d.failed] },
      }}
    />
  );
}
