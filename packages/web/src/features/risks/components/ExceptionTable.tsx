import type { RiskItem } from '@sextant/api';
import { App, Button, Table, type TableColumnsType, Tag } from 'antd';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { openInViewer } from '../../../lib/open-in-viewer.ts';
import { useSession } from '../../../lib/session.tsx';
import { riskTexts } from '../texts.ts';
import type { RiskSearch } from '../url.ts';

const when = (at: string | null) => (at ? new Date(at).toLocaleString() : '');

/** Exception risks grouped by app, interface and exception type: count, first and last seen, a sample trace. */
export function ExceptionTable(props: {
  items: RiskItem[];
  total: number;
  loading: boolean;
  search: RiskSearch;
  onSearch: (next: RiskSearch) => void;
}) {
  const t = useTexts(riskTexts);
  const { settings } = useSession();
  const { locale } = useLocale();
  const { message } = App.useApp();
  // The session is handed to the viewer's port first, as the trace search does (lib/open-in-viewer.ts).
  const open = (traceId: string, appId: string) =>
    openInViewer(settings.traceViewerUrl, traceId, appId, locale).catch(() =>
      message.error(t.exceptionColumns.openFailed),
    );
  const columns: TableColumnsType<RiskItem> = [
    { title: t.exceptionColumns.app, key: 'app', render: (_, i) => `${i.appName} ${i.version}`.trim() },
    { title: t.exceptionColumns.interface, dataIndex: 'className', key: 'interface' },
    { title: t.exceptionColumns.exceptionType, dataIndex: 'methodName', key: 'type' },
    { title: t.exceptionColumns.count, dataIndex: 'occurrences', key: 'count', align: 'right' },
    { title: t.exceptionColumns.firstSeen, key: 'first', render: (_, i) => when(i.firstSeenAt) },
    { title: t.exceptionColumns.lastSeen, key: 'last', render: (_, i) => when(i.lastSeenAt) },
    { title: t.exceptionColumns.state, key: 'state', render: (_, i) => <Tag>{t.states[i.state]}</Tag> },
    {
      title: t.exceptionColumns.sample,
      key: 'sample',
      render: (_, i) =>
        i.sampleTraceId ? (
          <Button type="link" size="small" onClick={() => open(i.sampleTraceId as string, i.appId)}>
            {i.sampleTraceId.slice(0, 16)}
          </Button>
        ) : null,
    },
  ];
  return (
    <Table<RiskItem>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={props.items}
      loading={props.loading}
      pagination={{
        current: props.search.page ?? 1,
        pageSize: props.search.perPage ?? 20,
        total: props.total,
        onChange: (page, perPage) => props.onSearch({ ...props.search, page, perPage }),
      }}
    />
  );
}
