import type { ActivityDay, CoverageWeek, UploadDay } from '@sextant/api';
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

type ActivityRow = { day: string; succeeded: number; failed: number; uploads: number; agents: number };

/** Per day: reports finished (successful and failed, stacked), coverage uploads and the agents that sent them. */
export function ActivityChart({
  days,
  uploads,
  height,
}: {
  days: ActivityDay[];
  uploads: UploadDay[];
  height?: number;
}) {
  const t = useTexts(analyticsTexts);
  const byDay = new Map<string, ActivityRow>();
  const row = (day: string) => {
    let found = byDay.get(day);
    if (!found) {
      found = { day, succeeded: 0, failed: 0, uploads: 0, agents: 0 };
      byDay.set(day, found);
    }
    return found;
  };
  for (const d of days) Object.assign(row(d.day), { succeeded: d.succeeded, failed: d.failed });
  for (const u of uploads) Object.assign(row(u.day), { uploads: u.uploads, agents: u.agents });
  const rows = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
  const option = {
    animation: false,
    grid: { left: 40, right: 16, top: 32, bottom: 24 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: rows.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      {
        name: t.succeeded,
        type: 'bar',
        stack: 'r',
        barMaxWidth: 32,
        color: '#28c76f',
        data: rows.map((d) => d.succeeded),
      },
      { name: t.failed, type: 'bar', stack: 'r', barMaxWidth: 32, color: '#ea5455', data: rows.map((d) => d.failed) },
      { name: t.uploads, type: 'line', color: '#7367f0', data: rows.map((d) => d.uploads) },
      { name: t.uploadingAgents, type: 'line', color: '#ff9f43', data: rows.map((d) => d.agents) },
    ],
  };
  return (
    <ChartCard<ActivityRow>
      title={t.testActivity}
      name="activity"
      option={option}
      height={height}
      table={{
        rows,
        rowKey: (d) => d.day,
        columns: [
          { key: 'd', title: t.day, dataIndex: 'day' },
          { key: 's', title: t.succeeded, dataIndex: 'succeeded', align: 'right' },
          { key: 'f', title: t.failed, dataIndex: 'failed', align: 'right' },
          { key: 'u', title: t.uploads, dataIndex: 'uploads', align: 'right' },
          { key: 'a', title: t.uploadingAgents, dataIndex: 'agents', align: 'right' },
        ],
        csv: {
          header: [t.day, t.succeeded, t.failed, t.uploads, t.uploadingAgents],
          row: (d) => [d.day, d.succeeded, d.failed, d.uploads, d.agents],
        },
      }}
    />
  );
}
