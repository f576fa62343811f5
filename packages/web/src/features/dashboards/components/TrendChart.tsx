import type { Dashboard } from '@sextant/api';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';

// Only the parts a line chart needs, so the dashboard chunk stays small and ECharts stays out of the others.
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type Trend = Dashboard['apps'][number]['trend'];

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

/** Line, branch and changed-line coverage of the last successful reports, oldest first, in percent. */
export function TrendChart({ trend }: { trend: Trend }) {
  const option = useMemo(
    () => ({
      animation: false,
      grid: { left: 40, right: 12, top: 28, bottom: 24 },
      tooltip: { trigger: 'axis', valueFormatter: (v: number | null) => (v === null ? '—' : `${v}%`) },
      legend: { top: 0, textStyle: { fontSize: 11 } },
      xAxis: {
        type: 'category',
        data: trend.map((t) =>
          new Date(t.date).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
        ),
        axisLabel: { fontSize: 10 },
      },
      yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%', fontSize: 10 } },
      series: [
        {
          name: 'Lines',
          type: 'line',
          data: trend.map((t) => pct(t.lineCoverage)),
          connectNulls: true,
        },
        { name: 'Branches', type: 'line', data: trend.map((t) => pct(t.branchCoverage)), connectNulls: true },
        { name: 'Changed lines', type: 'line', data: trend.map((t) => pct(t.diffLineCoverage)), connectNulls: true },
      ],
    }),
    [trend],
  );
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: 180 }} notMerge lazyUpdate />;
}
