import { describe, expect, it } from 'vitest';
import { readDetailQuery, writeDetailQuery } from './url.ts';

// Issue 33: the report detail keeps its filters in the URL, as the lists do, so a reload or a shared link
// opens the same view.
describe('report detail query in the URL', () => {
  it('opens with the defaults when the URL says nothing', () => {
    expect(readDetailQuery(new URLSearchParams())).toEqual({ page: 1, perPage: 200, sortBy: 'name', sortDesc: false });
    expect(writeDetailQuery(readDetailQuery(new URLSearchParams())).toString()).toBe('');
  });

  it('restores every filter, the sort and the page it wrote', () => {
    const query = {
      page: 3,
      perPage: 50_000,
      sortBy: 'lineCoverage' as const,
      sortDesc: true,
      changedOnly: true,
      uncoveredOnly: true,
      q: 'shop/Cart',
    };
    const url = writeDetailQuery(query).toString();
    expect(url).toBe(
      'changedOnly=true&uncoveredOnly=true&q=shop%2FCart&page=3&perPage=50000&sortBy=lineCoverage&sortDesc=true',
    );
    expect(readDetailQuery(new URLSearchParams(url))).toEqual(query);
  });

  it('falls back to the defaults for values it does not know', () => {
    const query = readDetailQuery(new URLSearchParams('page=-2&perPage=abc&sortBy=password&changedOnly=yes&q=%20'));
    expect(query).toEqual({ page: 1, perPage: 200, sortBy: 'name', sortDesc: false });
  });
});
