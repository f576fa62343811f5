import type { Dashboard } from '@sextant/api';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { dashboardTexts } from '../texts.ts';

// Only the parts a line chart needs, so the dashboard chunk stays small and ECharts stays out of the others.
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type Trend = Dashboard['apps'][number]['trend'];

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

/** Line, branch and changed-line coverage of the last successful reports, oldest first, in percent. */
export function TrendChart({ trend }: { trend: Trend }) {
  const t = useTexts(dashboardTexts);
  const { formatDate, formatPercent } = useLocale();
  const option = useMemo(
    () => ({
      animation: false,
      grid: { left: 40, right: 12, top: 28, bottom: 24 },
      // Drawn on the canvas, not as HTML: the Trusted Types policy refuses markup (lib/trusted-types.ts).
      tooltip: {
        trigger: 'axis',
        renderMode: 'richText',
        valueFormatter: (v: number | null) => formatPercent(v === null ? null : v / 100),
      },
      legend: { top: 0, textStyle: { fontSize: 11 } },
      xAxis: {
        type: 'category',
        data: trend.map((point) => formatDate(point.date)),
        axisLabel: { fontSize: 10 },
      },
      yAxis: {
        type: 'value',
        min: 0,
        max: 100,
        axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0), fontSize: 10 },
      },
      series: [
        { name: t.lines, type: 'line', data: trend.map((p) => pct(p.lineCoverage)), connectNulls: true },
        { name: t.branches, type: 'line', data: trend.map((p) => pct(p.branchCoverage)), connectNulls: true },
        { name: t.changedLines, type: 'line', data: trend.map((p) => pct(p.diffLineCoverage)), connectNulls: true },
      ],
    }),
    [trend, t, formatDate, formatPercent],
  );
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: 180 }} notMerge lazyUpdate />;
}
