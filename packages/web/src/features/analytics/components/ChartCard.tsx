import { Button, Card, Segmented, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type EChartsReactCore from 'echarts-for-react/esm/core';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { type ReactNode, useRef, useState } from 'react';
import { useTexts } from '../../../lib/i18n.tsx';
import { download, toCsv } from '../csv.ts';
import { analyticsTexts } from '../texts.ts';
import { echarts } from './echarts.ts';

export type ChartTable<R> = {
  columns: ColumnsType<R>;
  rows: R[];
  rowKey: (row: R) => string;
  /** The CSV: its header and each row's plain values. */
  csv: { header: string[]; row: (row: R) => (string | number | null)[] };
};

/** A chart with its table view, CSV of the table and PNG of the chart (issue 35: every chart has both). */
export function ChartCard<R extends object>(props: {
  title: ReactNode;
  name: string;
  option: object;
  table: ChartTable<R>;
  height?: number;
  extra?: ReactNode;
}) {
  const t = useTexts(analyticsTexts);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const chart = useRef<EChartsReactCore>(null);
  const height = props.height ?? 260;
  const png = () => {
    const url = chart.current?.getEchartsInstance().getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
    if (!url) return;
    // Decoded here: fetching a data: URL is a connection the content security policy refuses.
    const bytes = Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
    download(`${props.name}.png`, new Blob([bytes], { type: 'image/png' }));
  };
  const csv = () =>
    download(`${props.name}.csv`, toCsv(props.table.csv.header, props.table.rows.map(props.table.csv.row)));
  return (
    <Card
      size="small"
      title={props.title}
      extra={
        <Space size={4}>
          {props.extra}
          <Segmented
            size="small"
            value={view}
            onChange={(v) => setView(v as 'chart' | 'table')}
            options={[
              { value: 'chart', label: t.chart },
              { value: 'table', label: t.table },
            ]}
          />
          <Button size="small" onClick={csv}>
            {t.csv}
          </Button>
          {view === 'chart' && (
            <Button size="small" onClick={png}>
              {t.png}
            </Button>
          )}
        </Space>
      }
    >
      {view === 'chart' ? (
        <ReactEChartsCore ref={chart} echarts={echarts} option={props.option} style={{ height }} notMerge lazyUpdate />
      ) : (
        <Table<R>
          size="small"
          rowKey={props.table.rowKey}
          columns={props.table.columns}
          dataSource={props.table.rows}
          pagination={false}
          scroll={{ y: height - 40 }}
        />
      )}
    </Card>
  );
}
