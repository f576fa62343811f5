import type { RiskItem } from '@sextant/api';
import { Button, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { coverageTone, percent, TONE_COLORS } from '../../../lib/grades.ts';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';
import { riskTexts } from '../texts.ts';
import { type RiskSearch, riskSourcePath } from '../url.ts';

type GroupRow = { key: string; group: string; children: ItemRow[] };
type ItemRow = RiskItem & { key: string };
type Row = GroupRow | ItemRow;
const isGroup = (row: Row): row is GroupRow => 'group' in row;

const STATE_COLORS = { observing: 'orange', pending: 'gold', judged: 'blue', resolved: 'green' } as const;

/** The page's items grouped by app and version (the server pages and sorts; groups keep its order). */
function grouped(items: RiskItem[], label: (item: RiskItem) => string): GroupRow[] {
  const groups = new Map<string, GroupRow>();
  for (const item of items) {
    const key = `${item.appId}\u0000${item.version}`;
    const group = groups.get(key) ?? { key, group: label(item), children: [] };
    group.children.push({ ...item, key: item.id });
    groups.set(key, group);
  }
  return [...groups.values()];
}

export function RiskTable(props: {
  items: RiskItem[];
  total: number;
  loading: boolean;
  search: RiskSearch;
  onSearch: (next: RiskSearch) => void;
  selected?: string[];
  onSelect?: (ids: string[]) => void;
  onJudge: (item: RiskItem) => void;
  onHistory: (item: RiskItem) => void;
}) {
  const t = useTexts(riskTexts);
  const { settings } = useSession();
  const rows = grouped(props.items, (i) => fill(t.group, { app: i.appName, version: i.version }));
  const ratio = (i: RiskItem) => (i.lineTotal > 0 ? i.lineCovered / i.lineTotal : 0);
  const columns: TableColumnsType<Row> = [
    {
      title: t.columns.method,
      key: 'method',
      render: (_, row) =>
        isGroup(row) ? (
          <Typography.Text strong>{row.group}</Typography.Text>
        ) : row.reportId === null ? (
          // An exception or performance item (from traces): the interface and what happened there.
          <Typography.Text>
            {row.className} · {row.kind === 'performance' ? fill(t.p95, { ms: row.p95Ms ?? '' }) : row.methodName}
          </Typography.Text>
        ) : (
          <Link to={riskSourcePath({ ...row, reportId: row.reportId })} title={row.filePath}>
            {row.className.split('/').pop()}.{row.methodName}
            {row.startLine ? `:${row.startLine}` : ''}
          </Link>
        ),
    },
    {
      title: t.columns.author,
      key: 'author',
      render: (_, row) => (isGroup(row) ? null : row.author?.replace(/\s*<.*>$/, '')),
    },
    {
      title: t.columns.coverage,
      key: 'lineCoverage',
      sorter: true,
      // Exception and performance risks have no lines to cover: "—", not a red 0 %.
      render: (_, row) =>
        isGroup(row) ? null : row.kind !== 'coverage' ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <span style={{ color: TONE_COLORS[coverageTone(ratio(row), settings)] }}>
            {percent(ratio(row))} ({row.lineCovered}/{row.lineTotal})
          </span>
        ),
    },
    {
      title: t.columns.changedLines,
      key: 'changedLines',
      sorter: true,
      // A trace risk's size is how often it was seen (stored in changed_lines for the severity).
      render: (_, row) =>
        isGroup(row)
          ? null
          : row.kind === 'coverage'
            ? row.changedLines
            : fill(t.occurrences, { n: row.occurrences ?? row.changedLines }),
    },
    {
      title: t.columns.severity,
      key: 'severity',
      sorter: true,
      render: (_, row) => (isGroup(row) ? null : row.severity),
    },
    {
      title: t.columns.state,
      key: 'state',
      render: (_, row) =>
        isGroup(row) ? null : (
          <Space size={4}>
            <Tag color={STATE_COLORS[row.state]}>{t.states[row.state]}</Tag>
            {settings.showJudgment && row.judgment && <Tag>{t.judgments[row.judgment]}</Tag>}
            {row.overdue && <Tag color="red">{t.overdue}</Tag>}
          </Space>
        ),
    },
    ...(settings.showJudgment
      ? [
          {
            title: t.columns.due,
            key: 'dueDate',
            sorter: true,
            render: (_: unknown, row: Row) => (isGroup(row) ? null : row.dueDate),
          },
        ]
      : []),
    {
      title: t.columns.opened,
      key: 'createdAt',
      sorter: true,
      render: (_, row) => (isGroup(row) ? null : new Date(row.createdAt).toLocaleDateString()),
    },
    {
      title: t.columns.actions,
      key: 'actions',
      render: (_, row) =>
        isGroup(row) ? null : (
          <Space size={0}>
            {settings.showJudgment && row.mayJudge && (
              <Button type="link" size="small" onClick={() => props.onJudge(row)}>
                {t.judge}
              </Button>
            )}
            <Button type="link" size="small" onClick={() => props.onHistory(row)}>
              {t.history}
            </Button>
          </Space>
        ),
    },
  ];
  return (
    <Table<Row>
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={rows}
      loading={props.loading}
      expandable={{ expandedRowKeys: rows.map((r) => r.key), showExpandColumn: false }}
      locale={{ emptyText: t.empty }}
      rowSelection={
        props.onSelect
          ? {
              checkStrictly: true,
              selectedRowKeys: props.selected,
              getCheckboxProps: (row) => ({ disabled: isGroup(row) || row.state !== 'observing' }),
              onChange: (keys) => props.onSelect?.(keys.map(String)),
            }
          : undefined
      }
      pagination={{
        current: props.search.page ?? 1,
        pageSize: props.search.perPage ?? 20,
        total: props.total,
        showSizeChanger: true,
      }}
      onChange={(pagination, _filters, sorter) => {
        const one = Array.isArray(sorter) ? sorter[0] : sorter;
        const sortBy = one?.order ? (one.columnKey as RiskSearch['sortBy']) : undefined;
        props.onSearch({
          ...props.search,
          page: pagination.current ?? 1,
          perPage: pagination.pageSize ?? 20,
          sortBy,
          sortDesc: one?.order ? one.order === 'descend' : undefined,
        });
      }}
    />
  );
}
