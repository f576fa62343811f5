import { describe, expect, it } from 'vitest';
import { pageAndSort } from './table-paging.ts';

const sortable = (key: string): key is 'name' | 'size' => key === 'name' || key === 'size';

describe('pageAndSort', () => {
  it('takes the page, its size and a sortable column with its direction', () => {
    expect(pageAndSort({ current: 3, pageSize: 50 }, { columnKey: 'size', order: 'descend' }, sortable)).toEqual({
      page: 3,
      perPage: 50,
      sortBy: 'size',
      sortDesc: true,
    });
    expect(pageAndSort({ current: 1, pageSize: 20 }, [{ columnKey: 'name', order: 'ascend' }], sortable).sortDesc).toBe(
      false,
    );
  });

  it('gives no sort for a cleared order or a column the list cannot sort by', () => {
    expect(pageAndSort({ current: 2 }, { columnKey: 'size', order: null }, sortable)).toMatchObject({
      page: 2,
      sortBy: undefined,
      sortDesc: undefined,
    });
    expect(pageAndSort({}, { columnKey: 'owner', order: 'ascend' }, sortable).sortBy).toBeUndefined();
  });
});
