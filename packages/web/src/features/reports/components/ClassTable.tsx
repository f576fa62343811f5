import { DETAIL_SORTS, type Report, type ReportDetail } from '@sextant/api';
import { Table } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { type UIEvent, useMemo } from 'react';
import { ColumnChooser } from '../../../components/columns/ColumnChooser.tsx';
import { useColumnChoice } from '../../../lib/column-choice.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { useJvmWords } from '../../../lib/jvm-words.ts';
import type { DetailQuery } from '../api/get-report-details.ts';
import { reportTexts } from '../texts.ts';
import {
  type ColumnContext,
  DetailNameCell,
  figureColumns,
  optionalColumns,
  type Sort,
  sourceColumn,
} from './class-columns.tsx';
import { type Row, useClassRows } from './class-rows.ts';

type Props = {
  report: Report;
  rows: ReportDetail[];
  total: number;
  loading: boolean;
  /** The next page of rows is on its way. */
  loadingMore: boolean;
  /** Scrolled near the last row fetched: the screen fetches the next page. */
  onNearEnd: () => void;
  query: DetailQuery;
  onQuery: (next: DetailQuery) => void;
};

/** Within this many pixels of the last row fetched, the next page is asked for. */
const NEAR_END_PX = 600;

/**
 * Class rows, virtualised, fetched a page at a time as the table scrolls (issue 41), each expandable to
 * its methods, fetched when first opened with the same sort. Sorting and filters run on the server.
 */
export function ClassTable({ report, rows, total, loading, loadingMore, onNearEnd, query, onQuery }: Props) {
  const t = useTexts(reportTexts);
  const { formatNumber } = useLocale();
  const { data, expand, siblingsOf, forgetMethods } = useClassRows(report.id, rows, query, t.classes.loadingMethods);
  const words = useJvmWords();
  const classes = useMemo(() => new Map(rows.map((c) => [c.id, c])), [rows]);
  const context: ColumnContext = {
    report,
    t,
    formatNumber,
    order: (key) => (query.sortBy === key ? (query.sortDesc ? 'descend' : 'ascend') : null),
  };
  const optional = optionalColumns(context);
  const choice = useColumnChoice('report-classes');
  const columns: ColumnsType<Row> = [
    {
      key: 'name',
      title: t.classes.name,
      width: 220,
      sorter: true,
      sortOrder: context.order('name'),
      render: (_, r) => {
        const parent = r.kind === 'method' ? classes.get(r.classId) : undefined;
        return (
          <DetailNameCell row={r} t={t} words={words} parent={parent} siblings={parent && siblingsOf(parent.id)} />
        );
      },
    },
    ...figureColumns(context),
    ...optional.filter(choice.isShown).map((c) => c.column),
    sourceColumn(context),
  ];
  const width = columns.reduce((sum, c) => sum + Number(c.width ?? 0), 0);

  /** A new sort: the rows and the methods fetched so far are forgotten (they were fetched in the old sort). */
  function change(sorter: SorterResult<Row> | SorterResult<Row>[]) {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
    const key = s?.order ? (String(s.columnKey) as Sort) : undefined;
    forgetMethods();
    onQuery({
      ...query,
      sortBy: key && (DETAIL_SORTS as readonly string[]).includes(key) ? key : 'name',
      sortDesc: key ? s?.order === 'descend' : false,
    });
  }

  // Caught on the way down to the virtual list's scroller (scroll events do not bubble), whichever
  // element of the table scrolls.
  function scrolled(e: UIEvent<HTMLDivElement>) {
    const el = e.target as HTMLElement;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX) onNearEnd();
  }

  return (
    <>
      <div className="table-tools">
        <ColumnChooser columns={optional} isShown={choice.isShown} onChoose={choice.choose} />
      </div>
      <div onScrollCapture={scrolled}>
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
          pagination={false}
          onChange={(_pagination, _filters, sorter) => change(sorter)}
          footer={() => (
            <span className="table-total">
              {fill(t.classes.total, { count: formatNumber(total) })}
              {loadingMore && ` · ${t.classes.loadingMore}`}
            </span>
          )}
        />
      </div>
    </>
  );
}
