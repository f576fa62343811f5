import type { InterfaceDetail } from '@sextant/api';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';
import { formatMs } from '../url.ts';

echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type AxisItem = { marker: string; seriesName: string; value: number | [number, number]; axisValueLabel: string };
const numberOf = (item: AxisItem) => (Array.isArray(item.value) ? item.value[1] : item.value);

/** p50/p95/p99 as lines and calls/errors as bars, over time; rich-text tooltips only (no HTML). */
export function LatencyOverTime({ series }: { series: InterfaceDetail['series'] }) {
  const t = useTexts(traceTexts).analytics;
  const { formatDate } = useLocale();
  const option = useMemo(() => {
    const point = (key: 'p50Ms' | 'p95Ms' | 'p99Ms' | 'calls' | 'errors') =>
      series.map((b) => [new Date(b.at).getTime(), b[key]]);
    const tooltip = (items: AxisItem[]) => {
      const first = items[0];
      if (!first) return '';
      const head = formatDate(numberOf(first) && (first.value as [number, number])[0]);
      const rows = items.map(
        (i) => `${i.marker}${i.seriesName}: ${i.seriesName.startsWith('p') ? formatMs(numberOf(i)) : numberOf(i)}`,
      );
      return [head, ...rows].join('\n');
    };
    return {
      animation: false,
      grid: { left: 60, right: 48, top: 32, bottom: 28 },
      legend: { top: 0, textStyle: { fontSize: 11 } },
      tooltip: { trigger: 'axis', renderMode: 'richText', formatter: tooltip },
      xAxis: { type: 'time', axisLabel: { fontSize: 10, hideOverlap: true } },
      yAxis: [
        { type: 'value', axisLabel: { formatter: (v: number) => formatMs(v), fontSize: 10 } },
        { type: 'value', splitLine: { show: false }, axisLabel: { fontSize: 10 } },
      ],
      series: [
        { name: 'p50', type: 'line', showSymbol: false, data: point('p50Ms') },
        { name: 'p95', type: 'line', showSymbol: false, data: point('p95Ms') },
        { name: 'p99', type: 'line', showSymbol: false, data: point('p99Ms') },
        {
          name: t.calls,
          type: 'bar',
          yAxisIndex: 1,
          data: point('calls'),
          itemStyle: { color: 'rgba(115,103,240,0.25)' },
        },
        { name: t.errors, type: 'bar', yAxisIndex: 1, data: point('errors'), itemStyle: { color: '#ea5455' } },
      ],
    };
  }, [series, t, formatDate]);
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: 240 }} notMerge lazyUpdate />;
}

/** How many calls fell in each duration bucket. */
export function LatencyHistogram({ histogram }: { histogram: InterfaceDetail['histogram'] }) {
  const t = useTexts(traceTexts).analytics;
  const option = useMemo(() => {
    const labels = histogram.map((h) => `${formatMs(h.fromMs)}–${formatMs(h.toMs)}`);
    return {
      animation: false,
      grid: { left: 48, right: 16, top: 16, bottom: 48 },
      tooltip: {
        trigger: 'item',
        renderMode: 'richText',
        formatter: (p: { name: string; value: number }) => `${p.name}\n${t.calls}: ${p.value}`,
      },
      xAxis: { type: 'category', data: labels, axisLabel: { fontSize: 9, rotate: 30, hideOverlap: true } },
      yAxis: { type: 'value', axisLabel: { fontSize: 10 } },
      series: [{ type: 'bar', data: histogram.map((h) => h.calls), itemStyle: { color: '#7367f0' } }],
    };
  }, [histogram, t]);
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: 240 }} notMerge lazyUpdate />;
}
