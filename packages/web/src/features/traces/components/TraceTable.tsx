import type { TraceSummary } from '@sextant/api';
import { Button, Table, Tag } from 'antd';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';
import { DurationTag } from './DurationTag.tsx';

type Props = { items: TraceSummary[]; loading: boolean; onOpen: (traceId: string) => void };

/** The found traces; each opens in the viewer. */
export function TraceTable({ items, loading, onOpen }: Props) {
  const t = useTexts(traceTexts).search;
  const { formatDate } = useLocale();
  return (
    <Table<TraceSummary>
      rowKey="traceId"
      size="small"
      loading={loading}
      dataSource={items}
      pagination={{ pageSize: 20, showSizeChanger: false }}
      columns={[
        {
          title: t.trace,
          key: 'trace',
          render: (_, row) => (
            <Button
              type="link"
              size="small"
              onClick={() => onOpen(row.traceId)}
              aria-label={`${t.open} ${row.traceId}`}
            >
              {row.rootName}
            </Button>
          ),
        },
        { title: t.service, dataIndex: 'rootService' },
        { title: t.interface, dataIndex: 'interface', render: (v: string | null) => v ?? '—' },
        { title: t.start, dataIndex: 'start', render: (v: string) => formatDate(v) },
        { title: t.duration, dataIndex: 'durationMs', render: (v: number) => <DurationTag ms={v} /> },
        { title: t.spans, dataIndex: 'spanCount' },
        {
          title: t.errors,
          dataIndex: 'errorCount',
          render: (v: number) => (v > 0 ? <Tag color="error">{v}</Tag> : 0),
        },
        { title: t.testCase, dataIndex: 'testCase', render: (v: string | null) => v ?? '—' },
        { title: t.version, dataIndex: 'appVersion', render: (v: string | null) => v ?? '—' },
      ]}
    />
  );
}
