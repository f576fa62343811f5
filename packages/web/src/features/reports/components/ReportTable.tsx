import { REPORT_SORTS, type Report } from '@sextant/api';
import { Button, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { Link } from 'react-router';
import type { ReportSearch } from '../api/search-reports.ts';
import { reportDetailPath, reportEditPath, reportSourcePath } from '../url.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';
import { StatusTag } from './StatusTag.tsx';

type Props = {
  reports: Report[];
  total: number;
  loading: boolean;
  search: ReportSearch;
  onSearch: (next: ReportSearch) => void;
  can: { update: boolean; remove: boolean };
  onDelete: (report: Report) => void;
  empty: React.ReactNode;
};

const sortable = (key: string) => (REPORT_SORTS as readonly string[]).includes(key);

/** The report list: server-side sorting and paging, grade colours, live status tags. */
export function ReportTable({ reports, total, loading, search, onSearch, can, onDelete, empty }: Props) {
  const order = (key: string) =>
    search.sortBy === key ? (search.sortDesc ? ('descend' as const) : ('ascend' as const)) : null;
  const figure = (key: keyof Report, title: string, covered?: keyof Report, totalKey?: keyof Report) => ({
    key,
    title,
    width: 120,
    sorter: sortable(key),
    sortOrder: order(key),
    render: (_: unknown, r: Report) => (
      <Space direction="vertical" size={0}>
        <GradeValue value={r[key] as number | null} />
        {covered && totalKey && <CountOf covered={r[covered] as number | null} total={r[totalKey] as number | null} />}
      </Space>
    ),
  });
  const columns: ColumnsType<Report> = [
    {
      key: 'name',
      title: 'Report',
      width: 220,
      sorter: true,
      sortOrder: order('name'),
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Link to={reportDetailPath(r.id)}>{r.name}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} title={new Date(r.createdAt).toLocaleString()}>
            {r.appName} · {r.envType} · {new Date(r.createdAt).toLocaleDateString()}
          </Typography.Text>
        </Space>
      ),
    },
    figure('lineCoverage', 'Lines', 'lineCovered', 'lineTotal'),
    figure('branchCoverage', 'Branches', 'branchCovered', 'branchTotal'),
    figure('methodCoverage', 'Methods', 'methodCovered', 'methodTotal'),
    figure('diffLineCoverage', 'Changed', 'diffLineCovered', 'diffLineTotal'),
    {
      key: 'status',
      title: 'Status',
      width: 150,
      sorter: true,
      sortOrder: order('status'),
      render: (_, r) => <StatusTag status={r.status} errMsg={r.errMsg} />,
    },
    {
      key: 'newVersion',
      title: 'Versions',
      width: 170,
      sorter: true,
      sortOrder: order('newVersion'),
      render: (_, r) => (
        <Typography.Text style={{ fontSize: 12 }}>
          {r.coverageType === 'incremental' ? `${r.baseVersion} → ` : ''}
          <Typography.Text code>{r.newVersion}</Typography.Text>
        </Typography.Text>
      ),
    },
    { key: 'appName', title: 'App', width: 130, dataIndex: 'appName', sorter: true, sortOrder: order('appName') },
    { key: 'envType', title: 'Env', width: 80, dataIndex: 'envType' },
    {
      key: 'coverageType',
      title: 'Type',
      width: 110,
      render: (_, r) => <Tag color={r.coverageType === 'incremental' ? 'purple' : 'blue'}>{r.coverageType}</Tag>,
    },
    {
      key: 'actions',
      title: 'Actions',
      fixed: 'right',
      width: can.update || can.remove ? 170 : 80,
      render: (_, r) => (
        <Space size="small" wrap>
          <Link to={reportSourcePath(r.id)}>Source</Link>
          {can.update && <Link to={reportEditPath(r.id)}>Edit</Link>}
          {can.remove && (
            <Popconfirm title={`Delete the report “${r.name}”?`} onConfirm={() => onDelete(r)}>
              <Button size="small" danger type="link">
                Delete
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Table<Report>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={reports}
      columns={columns}
      locale={{ emptyText: empty }}
      scroll={{ x: 1500 }}
      pagination={{
        current: search.page ?? 1,
        pageSize: search.perPage ?? 10,
        total,
        showSizeChanger: true,
        showTotal: (n) => `${n} report${n === 1 ? '' : 's'}`,
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
  );
}
