import { COMMITTER_SORTS, type CommitterQuery, type CommitterRow, type Screen } from '@sextant/api';
import { Button, Card, Space, Table } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { tableLoading } from '../../lib/table-loading.ts';
import { pageAndSort } from '../../lib/table-paging.ts';
import { getCommitters, useCommitters } from './api/get-committers.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';
import { useCsvExport } from './use-csv-export.ts';

type SortBy = CommitterQuery['sortBy'];
const isSort = (v: string | undefined): v is SortBy => (COMMITTER_SORTS as readonly string[]).includes(v ?? '');

/** /dashboard/committerAnalyticTable: every committer, sorted and paged on the server, exported whole as CSV. */
export default function CommitterTablePage({ screen }: { screen: Screen }) {
  const t = useTexts(analyticsTexts);
  const { formatNumber } = useLocale();
  const url = useAnalyticsUrl();
  const sortBy: SortBy = isSort(url.sortBy) ? url.sortBy : 'uncoveredMethods';
  const sortDesc = url.sortBy ? url.sortDesc : true;
  const paging = { page: url.page, perPage: url.perPage, sortBy, sortDesc };
  const committers = useCommitters(url.filter, paging);
  const name = (author: string | null) => author ?? t.unknownAuthor;
  const header = [
    t.committer,
    t.changedMethods,
    t.coveredMethods,
    t.uncoveredMethods,
    t.methodCoverage,
    t.changedLineCoverage,
    t.reports,
  ];
  const { exporting, exportAll } = useCsvExport(
    'committers.csv',
    header,
    (r: CommitterRow) => [
      name(r.author),
      r.changedMethods,
      r.coveredMethods,
      r.uncoveredMethods,
      r.methodCoverage,
      r.lineCoverage,
      r.reports,
    ],
    (page, perPage) => getCommitters(url.filter, { ...paging, page, perPage }),
  );
  const order = (key: SortBy): SortOrder => (sortBy === key ? (sortDesc ? 'descend' : 'ascend') : null);
  const num = (key: 'changedMethods' | 'coveredMethods' | 'uncoveredMethods' | 'reports', title: string) => ({
    key,
    title,
    align: 'right' as const,
    sorter: key !== 'reports',
    sortOrder: key === 'reports' ? undefined : order(key),
    render: (_: unknown, r: CommitterRow) => formatNumber(r[key]),
  });
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead
        screen={screen}
        error={committers.error}
        extra={
          <Button onClick={exportAll} loading={exporting}>
            {t.csv}
          </Button>
        }
      />
      <FilterBar url={url} />
      <Card size="small">
        <Table<CommitterRow>
          size="small"
          rowKey={(r) => r.author ?? ''}
          loading={tableLoading(committers)}
          dataSource={committers.data?.items ?? []}
          locale={{ emptyText: t.nothing }}
          pagination={{
            current: url.page,
            pageSize: url.perPage,
            total: committers.data?.total ?? 0,
            showSizeChanger: true,
          }}
          onChange={(pagination, _filters, sorter) => url.set(pageAndSort(pagination, sorter, isSort))}
          columns={[
            {
              key: 'author',
              title: t.committer,
              sorter: true,
              sortOrder: order('author'),
              render: (_, r) => name(r.author),
            },
            num('changedMethods', t.changedMethods),
            num('coveredMethods', t.coveredMethods),
            num('uncoveredMethods', t.uncoveredMethods),
            {
              key: 'methodCoverage',
              title: t.methodCoverage,
              sorter: true,
              sortOrder: order('methodCoverage'),
              render: (_, r) => <Grade value={r.methodCoverage} />,
            },
            {
              key: 'lineCoverage',
              title: t.changedLineCoverage,
              sorter: true,
              sortOrder: order('lineCoverage'),
              render: (_, r) => <Grade value={r.lineCoverage} />,
            },
            num('reports', t.reports),
          ]}
        />
      </Card>
    </Space>
  );
}
