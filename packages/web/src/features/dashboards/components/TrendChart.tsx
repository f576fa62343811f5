import type { Dashboard } from '@sextant/api';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { dashboardTexts } from '../texts.ts';
import { trendByVersion, type VersionFigure } from './trend-by-version.ts';

// Only the parts a line chart needs, so the dashboard chunk stays small and ECharts stays out of the others.
echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type Trend = Dashboard['apps'][number]['trend'];
type AxisTooltipItem = { dataIndex: number; seriesIndex: number; marker: string; seriesName: string };

const pct = (figure: VersionFigure) => (figure === null ? null : Math.round(figure.value * 1000) / 10);

/**
 * Version and report names are the users' words. The tooltip is ECharts rich text drawn on the canvas
 * (no HTML: the Trusted Types policy refuses markup, lib/trusted-types.ts), where `{name|…}` is a
 * style: braces and bars are left out of those words so they cannot restyle it.
 */
const plain = (text: string) => text.replace(/[{}|]/g, '');

/**
 * Line, branch and changed-line coverage by version (ordered by the version's date), in percent;
 * the tooltip names each figure's report and when it finished.
 */
export function TrendChart({ trend }: { trend: Trend }) {
  const t = useTexts(dashboardTexts);
  const { formatDate, formatPercent } = useLocale();
  const versions = useMemo(() => trendByVersion(trend).versions, [trend]);
  const option = useMemo(() => {
    const { versions, figures } = trendByVersion(trend);
    const series = [figures.lineCoverage, figures.branchCoverage, figures.diffLineCoverage];
    const tooltip = (items: AxisTooltipItem[]) => {
      const first = items[0];
      if (!first) return '';
      const rows = items.map((item) => {
        const figure = series[item.seriesIndex]?.[item.dataIndex] ?? null;
        if (!figure) return `${item.marker}${plain(item.seriesName)}: —`;
        const when = formatDate(figure.point.date);
        return `${item.marker}${plain(item.seriesName)}: ${formatPercent(figure.value)} · ${plain(figure.point.name)} · ${plain(when)}`;
      });
      return [plain(versions[first.dataIndex] ?? ''), ...rows].join('\n');
    };
    return {
      animation: false,
      grid: { left: 40, right: 12, top: 28, bottom: 24 },
      tooltip: { trigger: 'axis', renderMode: 'richText', formatter: tooltip },
      legend: { top: 0, textStyle: { fontSize: 11 } },
      xAxis: { type: 'category', data: versions, axisLabel: { fontSize: 10, hideOverlap: true } },
      yAxis: {
        type: 'value',
        min: 0,
        max: 100,
        axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0), fontSize: 10 },
      },
      series: [
        { name: t.lines, type: 'line', data: figures.lineCoverage.map(pct), connectNulls: true },
        { name: t.branches, type: 'line', data: figures.branchCoverage.map(pct), connectNulls: true },
        { name: t.changedLines, type: 'line', data: figures.diffLineCoverage.map(pct), connectNulls: true },
      ],
    };
  }, [trend, t, formatDate, formatPercent]);
  // The canvas says nothing to a screen reader (nor to a test): the label names the versions on its x-axis.
  return (
    <div role="img" className="trend-chart" aria-label={fill(t.trendByVersion, { versions: versions.join(', ') })}>
      <ReactEChartsCore echarts={echarts} option={option} style={{ height: 180 }} notMerge lazyUpdate />
    </div>
  );
}
