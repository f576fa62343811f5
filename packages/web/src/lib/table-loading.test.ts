import { describe, expect, it } from 'vitest';
import { tableLoading } from './table-loading.ts';

describe('tableLoading', () => {
  it('veils the table before the first answer', () => {
    expect(tableLoading({ isPending: true, isFetching: true, isPlaceholderData: false })).toBe(true);
  });

  it('veils the previous page while the next one loads', () => {
    expect(tableLoading({ isPending: false, isFetching: true, isPlaceholderData: true })).toBe(true);
  });

  it('leaves the rows alone during a background refetch', () => {
    expect(tableLoading({ isPending: false, isFetching: true, isPlaceholderData: false })).toBe(false);
  });

  it('is off once the rows are there', () => {
    expect(tableLoading({ isPending: false, isFetching: false, isPlaceholderData: false })).toBe(false);
  });
});
