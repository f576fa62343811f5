import type { TraceSummary } from '@sextant/api';
import { ScatterChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useMemo } from 'react';
import { useLocale } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';
import { durationTone, formatMs } from '../url.ts';

echarts.use([ScatterChart, GridComponent, TooltipComponent, CanvasRenderer]);

const TONE_COLOURS = { success: '#28c76f', warning: '#ff9f43', danger: '#ea5455' } as const;
/** Span names are the services' words; the tooltip is rich text, where braces and bars are styles. */
const plain = (text: string) => text.replace(/[{}|]/g, '');

type Props = { items: TraceSummary[]; onOpen: (traceId: string) => void };

/** Each trace by start time and duration, coloured by point 9's thresholds; a click opens it. */
export function DurationScatter({ items, onOpen }: Props) {
  const { settings } = useSession();
  const { formatDate } = useLocale();
  const option = useMemo(() => {
    const data = items.map((item) => ({
      value: [new Date(item.start).getTime(), item.durationMs],
      traceId: item.traceId,
      itemStyle: {
        color: TONE_COLOURS[durationTone(item.durationMs, settings.traceWarnThreshold, settings.traceSeriousThreshold)],
      },
      tip: `${plain(item.rootName)}\n${formatMs(item.durationMs)} · ${plain(formatDate(item.start))}`,
    }));
    return {
      animation: false,
      grid: { left: 56, right: 16, top: 16, bottom: 28 },
      tooltip: { trigger: 'item', renderMode: 'richText', formatter: (p: { data: { tip: string } }) => p.data.tip },
      xAxis: { type: 'time', axisLabel: { fontSize: 10, hideOverlap: true } },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatMs(v), fontSize: 10 } },
      series: [{ type: 'scatter', symbolSize: 9, data }],
    };
  }, [items, settings, formatDate]);
  return (
    <ReactEChartsCore
      echarts={echarts}
      option={option}
      style={{ height: 200 }}
      notMerge
      lazyUpdate
      onEvents={{ click: (p: { data?: { traceId?: string } }) => p.data?.traceId && onOpen(p.data.traceId) }}
    />
  );
}
