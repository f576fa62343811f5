import { DETAIL_SORTS, type ReportDetail } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType, SorterResult, SortOrder } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useErrorMessage } from '../../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { type DetailQuery, reportDetailsOptions } from '../api/get-report-details.ts';
import { reportTexts } from '../texts.ts';
import { reportSourcePath } from '../url.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';

type Row = ReportDetail & { children?: Row[]; note?: string };
type Sort = (typeof DETAIL_SORTS)[number];

/** A stand-in child so the class shows its expand arrow before its methods are fetched. */
const stub = (parent: ReportDetail, note: string): Row => ({
  ...parent,
  id: `${parent.id}:stub`,
  kind: 'method',
  note,
});

/** JaCoCo `pkg/Class$Inner` and file paths split at the last '/'; dotted names (`com.acme.Foo`) at the last dot. */
function shortName(row: ReportDetail): { main: string; rest: string } {
  if (row.kind === 'method') return { main: row.name, rest: '' };
  const slash = row.name.lastIndexOf('/');
  const dots = row.name.split('.').length - 1;
  const cut = slash >= 0 ? slash : dots >= 2 ? row.name.lastIndexOf('.') : -1;
  return cut < 0 ? { main: row.name, rest: '' } : { main: row.name.slice(cut + 1), rest: row.name.slice(0, cut) };
}

type Props = {
  reportId: string;
  rows: ReportDetail[];
  total: number;
  loading: boolean;
  query: DetailQuery;
  onQuery: (next: DetailQuery) => void;
};

/**
 * Class rows, virtualised (tens of thousands fit one page), each expandable to its methods, fetched
 * when first opened with the same sort. Sorting and filters run on the server.
 */
export function ClassTable({ reportId, rows, total, loading, query, onQuery }: Props) {
  const client = useQueryClient();
  const t = useTexts(reportTexts);
  const { formatNumber } = useLocale();
  const errorMessage = useErrorMessage();
  const [methods, setMethods] = useState<Record<string, Row[] | string>>({});
  const data = useMemo<Row[]>(
    () =>
      rows.map((c) => {
        if (c.methodCount === 0) return c;
        const loaded = methods[c.id];
        return { ...c, children: Array.isArray(loaded) ? loaded : [stub(c, loaded ?? t.classes.loadingMethods)] };
      }),
    [rows, methods, t.classes.loadingMethods],
  );

  function expand(open: boolean, row: Row) {
    if (!open || row.kind !== 'class' || Array.isArray(methods[row.id])) return;
    const methodQuery = { classId: row.id, perPage: 100_000, sortBy: query.sortBy, sortDesc: query.sortDesc };
    client.fetchQuery(reportDetailsOptions(reportId, methodQuery)).then(
      (page) => setMethods((m) => ({ ...m, [row.id]: page.reports })),
      (error) => setMethods((m) => ({ ...m, [row.id]: errorMessage(error) })),
    );
  }

  const order = (key: Sort): SortOrder => (query.sortBy === key ? (query.sortDesc ? 'descend' : 'ascend') : null);
  const figure = (key: Sort, title: string, covered: keyof ReportDetail, totalKey: keyof ReportDetail) => ({
    key,
    title,
    width: 120,
    sorter: true,
    sortOrder: order(key),
    render: (_: unknown, r: Row) =>
      r.note ? null : (
        <Space direction="vertical" size={0}>
          <GradeValue value={r[key as keyof ReportDetail] as number | null} />
          <CountOf covered={r[covered] as number | null} total={r[totalKey] as number | null} />
        </Space>
      ),
  });
  const columns: ColumnsType<Row> = [
    {
      key: 'name',
      title: t.classes.name,
      width: 420,
      sorter: true,
      sortOrder: order('name'),
      render: (_, r) => {
        if (r.note) return <Typography.Text type="secondary">{r.note}</Typography.Text>;
        const { main, rest } = shortName(r);
        return (
          <Space size={4} wrap={false} className={`detail-${r.kind}`}>
            <Typography.Text strong={r.kind === 'class'} title={r.name} style={{ maxWidth: 330 }} ellipsis>
              {main}
            </Typography.Text>
            {r.changeStatus && (
              <Tag color={r.changeStatus === 'added' ? 'green' : 'gold'}>
                {t.classes.changeStatuses[r.changeStatus]}
              </Tag>
            )}
            {r.kind === 'class' && r.changed && <Tag color="gold">{t.classes.changed}</Tag>}
            {rest && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {rest}
              </Typography.Text>
            )}
          </Space>
        );
      },
    },
    figure('lineCoverage', t.figures.lines, 'lineCovered', 'lineTotal'),
    figure('branchCoverage', t.figures.branches, 'branchCovered', 'branchTotal'),
    figure('methodCoverage', t.figures.methods, 'methodCovered', 'methodTotal'),
    figure('instructionCoverage', t.figures.instructions, 'instructionCovered', 'instructionTotal'),
    figure('cxty', t.figures.complexity, 'complexityCovered', 'complexityTotal'),
    {
      key: 'lineTotal',
      title: t.classes.coverableLines,
      width: 110,
      sorter: true,
      sortOrder: order('lineTotal'),
      render: (_, r) => (r.note ? null : r.lineTotal === null ? '—' : formatNumber(r.lineTotal)),
    },
    {
      key: 'branchTotal',
      title: t.classes.branchTotal,
      width: 100,
      sorter: true,
      sortOrder: order('branchTotal'),
      render: (_, r) => (r.note ? null : r.branchTotal === null ? '—' : formatNumber(r.branchTotal)),
    },
    {
      key: 'codeAuthor',
      title: t.classes.author,
      width: 140,
      sorter: true,
      sortOrder: order('codeAuthor'),
      render: (_, r) => (r.note ? null : (r.codeAuthor ?? '—')),
    },
    {
      key: 'source',
      title: t.classes.source,
      width: 90,
      render: (_, r) =>
        r.note || !r.filePath ? null : (
          <Link to={`${reportSourcePath(reportId, r.filePath)}${r.startLine ? `&line=${r.startLine}` : ''}`}>
            {t.classes.view}
          </Link>
        ),
    },
  ];

  return (
    <Table<Row>
      virtual
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={data}
      columns={columns}
      scroll={{ x: 1400, y: 560 }}
      expandable={{ onExpand: expand }}
      locale={{
        emptyText: query.changedOnly || query.uncoveredOnly || query.q ? t.classes.noMatch : t.classes.none,
      }}
      pagination={{
        current: query.page ?? 1,
        pageSize: query.perPage ?? 1000,
        total,
        showSizeChanger: true,
        pageSizeOptions: [100, 1000, 10_000, 50_000],
        showTotal: (n) => fill(t.classes.total, { count: formatNumber(n) }),
      }}
      onChange={(pagination, _filters, sorter) => {
        const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
        const key = s?.order ? (String(s.columnKey) as Sort) : undefined;
        setMethods({});
        onQuery({
          ...query,
          page: pagination.current ?? 1,
          perPage: pagination.pageSize ?? 1000,
          sortBy: key && (DETAIL_SORTS as readonly string[]).includes(key) ? key : 'name',
          sortDesc: key ? s?.order === 'descend' : false,
        });
      }}
    />
  );
}
