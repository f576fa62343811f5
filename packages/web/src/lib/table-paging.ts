import type { TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';

/** What a server-paged table's change asks for: the page, its size, and the sort (none when cleared). */
export type PageAndSort<Sort extends string> = {
  page: number | undefined;
  perPage: number | undefined;
  sortBy: Sort | undefined;
  sortDesc: boolean | undefined;
};

/**
 * Reads an Ant Design table's `onChange` into the page and sort a server-paged list asks for. A column
 * key the list cannot sort by, or a cleared sort order, gives no sort.
 */
export function pageAndSort<Row, Sort extends string>(
  pagination: TablePaginationConfig,
  sorter: SorterResult<Row> | SorterResult<Row>[],
  sortable: (key: string) => key is Sort,
): PageAndSort<Sort> {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  const key = typeof one?.columnKey === 'string' && one.order && sortable(one.columnKey) ? one.columnKey : undefined;
  return {
    page: pagination.current,
    perPage: pagination.pageSize,
    sortBy: key,
    sortDesc: key ? one?.order === 'descend' : undefined,
  };
}
