import { DETAIL_SORTS, type JvmNameWords, type Report, type ReportDetail } from '@sextant/api';
import { useQueryClient } from '@tanstack/react-query';
import { Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType, SorterResult, SortOrder } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ColumnChooser } from '../../../components/columns/ColumnChooser.tsx';
import { type ChoosableColumn, useColumnChoice } from '../../../lib/column-choice.ts';
import { useErrorMessage } from '../../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { type DetailQuery, reportDetailsOptions } from '../api/get-report-details.ts';
import { reportTexts } from '../texts.ts';
import { reportSourcePath } from '../url.ts';
import { countsStatements } from './counter-labels.ts';
import { detailName } from './detail-names.ts';
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

type Props = {
  report: Report;
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
export function ClassTable({ report, rows, total, loading, query, onQuery }: Props) {
  const reportId = report.id;
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

  const words = useMemo<JvmNameWords>(
    () => ({
      staticInitializer: t.jvmNames.staticInitializer,
      lambdaIn: (method) => fill(t.jvmNames.lambdaIn, { method }),
      anonymous: (index) => fill(t.jvmNames.anonymous, { index }),
    }),
    [t.jvmNames],
  );
  const classes = useMemo(() => new Map(rows.map((c) => [c.id, c])), [rows]);
  const siblingsOf = (classId: string) => {
    const loaded = methods[classId];
    return Array.isArray(loaded) ? loaded.map((m) => m.name) : undefined;
  };

  const order = (key: Sort): SortOrder => (query.sortBy === key ? (query.sortDesc ? 'descend' : 'ascend') : null);
  const figure = (key: Sort, title: string, covered: keyof ReportDetail, totalKey: keyof ReportDetail) => ({
    key,
    title,
    width: 100,
    sorter: true,
    sortOrder: order(key),
    render: (_: unknown, r: Row) =>
      r.note ? null : (
        <Space direction="vertical" size={0}>
          <GradeValue value={r[key as keyof ReportDetail] as number | null} />
          <CountOf
            covered={r[covered] as number | null}
            total={r[totalKey] as number | null}
            coveredAtMost={r[`${covered}AtMost` as keyof ReportDetail] as number | null}
          />
        </Space>
      ),
  });
  // A figure the report's format lacks ("—" in every row) gets no column (issue 37).
  const has = (total: keyof Report) => report[total] !== null;
  const figureColumns = [
    has('lineTotal') && figure('lineCoverage', t.figures.lines, 'lineCovered', 'lineTotal'),
    has('branchTotal') && figure('branchCoverage', t.figures.branches, 'branchCovered', 'branchTotal'),
    has('methodTotal') && figure('methodCoverage', t.figures.methods, 'methodCovered', 'methodTotal'),
    has('instructionTotal') &&
      figure(
        'instructionCoverage',
        countsStatements(report) ? t.figures.statements : t.figures.instructions,
        'instructionCovered',
        'instructionTotal',
      ),
    has('complexityTotal') && figure('cxty', t.figures.complexity, 'complexityCovered', 'complexityTotal'),
  ].filter((c) => c !== false);
  const optional: (ChoosableColumn & { column: ColumnsType<Row>[number] })[] = [
    {
      key: 'lineTotal',
      title: t.classes.coverableLines,
      shown: false,
      column: {
        key: 'lineTotal',
        title: t.classes.coverableLines,
        width: 96,
        sorter: true,
        sortOrder: order('lineTotal'),
        render: (_, r) => (r.note ? null : r.lineTotal === null ? '—' : formatNumber(r.lineTotal)),
      },
    },
    {
      key: 'branchTotal',
      title: t.classes.branchTotal,
      shown: false,
      column: {
        key: 'branchTotal',
        title: t.classes.branchTotal,
        width: 90,
        sorter: true,
        sortOrder: order('branchTotal'),
        render: (_, r) => (r.note ? null : r.branchTotal === null ? '—' : formatNumber(r.branchTotal)),
      },
    },
    {
      key: 'codeAuthor',
      title: t.classes.author,
      shown: true,
      column: {
        key: 'codeAuthor',
        title: t.classes.author,
        width: 100,
        sorter: true,
        sortOrder: order('codeAuthor'),
        ellipsis: true,
        render: (_, r) => (r.note ? null : (r.codeAuthor ?? '—')),
      },
    },
  ];
  const choice = useColumnChoice('report-classes');
  const columns: ColumnsType<Row> = [
    {
      key: 'name',
      title: t.classes.name,
      width: 220,
      sorter: true,
      sortOrder: order('name'),
      render: (_, r) => {
        if (r.note) return <Typography.Text type="secondary">{r.note}</Typography.Text>;
        const parent = r.kind === 'method' ? classes.get(r.classId) : undefined;
        const { main, rest } = detailName(r, words, parent, parent && siblingsOf(parent.id));
        // One tag: a method's change, or a class holding a changed method.
        const tag = r.changeStatus ? (
          <Tag color={r.changeStatus === 'added' ? 'green' : 'gold'}>{t.classes.changeStatuses[r.changeStatus]}</Tag>
        ) : r.kind === 'class' && r.changed ? (
          <Tag color="gold">{t.classes.changed}</Tag>
        ) : null;
        return (
          <div className={`detail-name detail-${r.kind}`}>
            <Typography.Text strong={r.kind === 'class'} title={r.name} ellipsis>
              {main}
            </Typography.Text>
            {tag}
            {rest && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }} title={rest} ellipsis>
                {rest}
              </Typography.Text>
            )}
          </div>
        );
      },
    },
    ...figureColumns,
    ...optional.filter(choice.isShown).map((c) => c.column),
    {
      key: 'source',
      title: t.classes.source,
      width: 60,
      render: (_, r) =>
        r.note || !r.filePath ? null : (
          <Link to={`${reportSourcePath(reportId, r.filePath)}${r.startLine ? `&line=${r.startLine}` : ''}`}>
            {t.classes.view}
          </Link>
        ),
    },
  ];
  const width = columns.reduce((sum, c) => sum + Number(c.width ?? 0), 0);

  return (
    <>
      <div className="table-tools">
        <ColumnChooser columns={optional} isShown={choice.isShown} onChoose={choice.choose} />
      </div>
      <Table<Row>
        rootClassName="coverage-table"
        virtual
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data}
        columns={columns}
        scroll={{ x: width, y: 560 }}
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
    </>
  );
}
