import { type InterfaceRow, type Screen, screenByName } from '@sextant/api';
import { Card, Empty, Table, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useInterfaces } from './api/interfaces.ts';
import { DurationTag } from './components/DurationTag.tsx';
import { readWindow, WindowFilters, writeWindow } from './components/WindowFilters.tsx';
import { traceTexts } from './texts.ts';

/** The link to one interface's page: its name in the path, the window in the query. */
export function interfacePath(iface: string, params: URLSearchParams): string {
  const path = screenByName('otel-interface-analytic-detail').path.replace(':id', encodeURIComponent(iface));
  return `${path}?${params}`;
}

/** /otel/interfaceAnalytic: an app's interfaces with calls, error rate and p50/p95/p99 (issue 36). */
export default function InterfaceListPage({ screen }: { screen: Screen }) {
  const t = useTexts(traceTexts).analytics;
  const title = useScreenTitle(screen);
  const { formatDate, formatPercent, formatNumber } = useLocale();
  const [params, setParams] = useSearchParams();
  const search = readWindow(params);
  const list = useInterfaces(search);
  return (
    <Card title={title}>
      <WindowFilters search={search} onSearch={(next) => setParams(writeWindow(next))} />
      {search.appId ? (
        <Table<InterfaceRow>
          rowKey="interface"
          size="small"
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          pagination={{ pageSize: 50, showSizeChanger: false }}
          columns={[
            {
              title: t.interface,
              dataIndex: 'interface',
              render: (v: string) => <Link to={interfacePath(v, writeWindow(search))}>{v}</Link>,
            },
            {
              title: t.calls,
              dataIndex: 'calls',
              render: (v: number) => formatNumber(v),
              sorter: (a, b) => a.calls - b.calls,
            },
            {
              title: t.errorRate,
              dataIndex: 'errorRate',
              sorter: (a, b) => a.errorRate - b.errorRate,
              render: (v: number) => (
                <Tag color={v >= 0.1 ? 'error' : v > 0 ? 'warning' : 'success'}>{formatPercent(v)}</Tag>
              ),
            },
            { title: t.p50, dataIndex: 'p50Ms', render: (v: number) => <DurationTag ms={v} /> },
            {
              title: t.p95,
              dataIndex: 'p95Ms',
              render: (v: number) => <DurationTag ms={v} />,
              sorter: (a, b) => a.p95Ms - b.p95Ms,
            },
            { title: t.p99, dataIndex: 'p99Ms', render: (v: number) => <DurationTag ms={v} /> },
            { title: t.lastSeen, dataIndex: 'lastSeen', render: (v: string) => formatDate(v) },
          ]}
        />
      ) : (
        <Empty description={t.pickApp} />
      )}
    </Card>
  );
}
