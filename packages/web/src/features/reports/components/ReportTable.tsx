import { REPORT_SORTS, type Report } from '@sextant/api';
import { Button, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { Link } from 'react-router';
import { ColumnChooser } from '../../../components/columns/ColumnChooser.tsx';
import { type ChoosableColumn, useColumnChoice } from '../../../lib/column-choice.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import type { ReportSearch } from '../api/search-reports.ts';
import { reportTexts } from '../texts.ts';
import { reportDetailPath, reportEditPath, reportSourcePath } from '../url.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';
import { StatusTag } from './StatusTag.tsx';

type Props = {
  reports: Report[];
  total: number;
  /** False: `total` is an estimate, shown as "about". */
  totalExact: boolean;
  loading: boolean;
  search: ReportSearch;
  onSearch: (next: ReportSearch) => void;
  can: { update: boolean; remove: boolean };
  onDelete: (report: Report) => void;
  empty: React.ReactNode;
};

const sortable = (key: string) => (REPORT_SORTS as readonly string[]).includes(key);

/** The report list: server-side sorting and paging, grade colours, live status tags. */
export function ReportTable({ reports, total, totalExact, loading, search, onSearch, can, onDelete, empty }: Props) {
  const t = useTexts(reportTexts);
  const { formatDate, formatNumber } = useLocale();
  const order = (key: string) =>
    search.sortBy === key ? (search.sortDesc ? ('descend' as const) : ('ascend' as const)) : null;
  const figure = (key: keyof Report, title: string, covered?: keyof Report, totalKey?: keyof Report) => ({
    key,
    title,
    width: 96,
    sorter: sortable(key),
    sortOrder: order(key),
    render: (_: unknown, r: Report) => (
      <Space direction="vertical" size={0}>
        <GradeValue value={r[key] as number | null} />
        {covered && totalKey && <CountOf covered={r[covered] as number | null} total={r[totalKey] as number | null} />}
      </Space>
    ),
  });
  // Methods, and app and environment (also under each report's name), are the user's choice (issue 37):
  // the list fits 1280 px without them.
  const optional: (ChoosableColumn & { column: ColumnsType<Report>[number] })[] = [
    {
      key: 'methodCoverage',
      title: t.figures.methods,
      shown: false,
      column: figure('methodCoverage', t.figures.methods, 'methodCovered', 'methodTotal'),
    },
    {
      key: 'appName',
      title: t.table.app,
      shown: false,
      column: {
        key: 'appName',
        title: t.table.app,
        width: 120,
        dataIndex: 'appName',
        sorter: true,
        sortOrder: order('appName'),
        ellipsis: true,
      },
    },
    {
      key: 'envType',
      title: t.table.env,
      shown: false,
      column: { key: 'envType', title: t.table.env, width: 80, dataIndex: 'envType', ellipsis: true },
    },
    {
      key: 'coverageType',
      title: t.table.type,
      shown: false,
      column: {
        key: 'coverageType',
        title: t.table.type,
        width: 100,
        render: (_, r) => (
          <Tag color={r.coverageType === 'incremental' ? 'purple' : 'blue'}>{t.coverageTypes[r.coverageType]}</Tag>
        ),
      },
    },
  ];
  const choice = useColumnChoice('reports');
  const columns: ColumnsType<Report> = [
    {
      key: 'name',
      title: t.table.report,
      width: 190,
      sorter: true,
      sortOrder: order('name'),
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Link to={reportDetailPath(r.id)}>{r.name}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} title={formatDate(r.createdAt)}>
            {r.appName} · {r.envType} · {formatDate(r.createdAt, false)}
          </Typography.Text>
        </Space>
      ),
    },
    figure('lineCoverage', t.figures.lines, 'lineCovered', 'lineTotal'),
    figure('branchCoverage', t.figures.branches, 'branchCovered', 'branchTotal'),
    figure('diffLineCoverage', t.figures.changed, 'diffLineCovered', 'diffLineTotal'),
    {
      key: 'status',
      title: t.table.status,
      width: 124,
      sorter: true,
      sortOrder: order('status'),
      render: (_, r) => <StatusTag status={r.status} errMsg={r.errMsg} />,
    },
    {
      key: 'newVersion',
      title: t.table.versions,
      width: 136,
      sorter: true,
      sortOrder: order('newVersion'),
      render: (_, r) => (
        <Typography.Text style={{ fontSize: 12 }}>
          {r.coverageType === 'incremental' ? `${r.baseVersion} → ` : ''}
          <Typography.Text code>{r.newVersion}</Typography.Text>
        </Typography.Text>
      ),
    },
    ...optional.filter(choice.isShown).map((c) => c.column),
    {
      key: 'actions',
      title: t.table.actions,
      fixed: 'right',
      width: can.update || can.remove ? 150 : 72,
      render: (_, r) => (
        <Space size="small" wrap>
          <Link to={reportSourcePath(r.id)}>{t.table.source}</Link>
          {can.update && <Link to={reportEditPath(r.id)}>{t.table.edit}</Link>}
          {can.remove && (
            <Popconfirm title={fill(t.table.confirmDelete, { name: r.name })} onConfirm={() => onDelete(r)}>
              <Button size="small" danger type="link">
                {t.table.delete}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  const width = columns.reduce((sum, c) => sum + Number(c.width ?? 0), 0);
  return (
    <>
      <div className="table-tools">
        <ColumnChooser columns={optional} isShown={choice.isShown} onChoose={choice.choose} />
      </div>
      <Table<Report>
        rootClassName="coverage-table"
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={reports}
        columns={columns}
        locale={{ emptyText: empty }}
        scroll={{ x: width }}
        pagination={{
          current: search.page ?? 1,
          pageSize: search.perPage ?? 10,
          total,
          showSizeChanger: true,
          showTotal: (n) =>
            fill(totalExact ? (n === 1 ? t.table.totalOne : t.table.totalMany) : t.table.totalAbout, {
              count: formatNumber(n),
            }),
        }}
        onChange={(pagination, _filters, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Report> | undefined;
          const key = s?.order ? String(s.columnKey) : undefined;
          onSearch({
            ...search,
            page: pagination.current ?? 1,
            perPage: pagination.pageSize ?? 10,
            sortBy: key && sortable(key) ? (key as ReportSearch['sortBy']) : 'lineCoverage',
            sortDesc: key ? s?.order === 'descend' : false,
          });
        }}
      />
    </>
  );
}
