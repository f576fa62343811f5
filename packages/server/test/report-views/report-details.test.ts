import { beforeAll, describe, expect, it } from 'vitest';
import { useReportViews } from './support.ts';

type Detail = { id: string; classId: string; name: string; kind: string; lineCoverage: number | null } & Record<
  string,
  unknown
>;
type Page = { reports: Detail[]; total: number };

describe('getReportDetails: class rows and their method rows', () => {
  const t = useReportViews();
  let reportId = '';
  let otherReportId = '';
  const ids: Record<string, string> = {};
  const details = (query: string) => t.ok<Page>('GET', `/api/getReportDetails?reportId=${reportId}&${query}`);
  const names = (page: Page) => page.reports.map((r) => r.name);

  beforeAll(async () => {
    const { appId } = await t.createApp('Shop', 'checkout');
    reportId = await t.insertReport({ appId, name: 'r1' });
    otherReportId = await t.insertReport({ appId, name: 'r2' });
    const klass = (name: string, covered: number | null, total: number | null, extra = {}) =>
      t.insertDetail({
        reportId,
        name,
        filePath: `src/${name}.java`,
        lineCovered: covered,
        lineTotal: total,
        ...extra,
      });
    ids.Cart = await klass('shop/Cart', 9, 10, { changed: true, methodCount: 3, codeAuthor: 'bea' });
    ids.Order = await klass('shop/Order', 2, 10, { branchCovered: 1, branchTotal: 2 });
    ids.Price = await klass('shop/Price%', 10, 10);
    ids.Empty = await klass('shop/Empty', null, null);
    const method = (name: string, covered: number, total: number, changed = false) =>
      t.insertDetail({
        reportId,
        classId: Number(ids.Cart),
        name,
        startLine: 10,
        endLine: 20,
        lineCovered: covered,
        lineTotal: total,
        changed,
        changeStatus: changed ? 'modified' : null,
      });
    ids.add = await method('add(I)V', 4, 4, true);
    ids.remove = await method('remove(I)V', 0, 3, true);
    ids.total = await method('total()J', 5, 6);
    await t.insertDetail({ reportId: otherReportId, name: 'other/Class', lineCovered: 1, lineTotal: 1 });
  });

  it('lists class rows by default (classId empty), sorted by name, with their fields', async () => {
    const page = await details('');
    expect(page.total).toBe(4);
    expect(names(page)).toEqual(['shop/Cart', 'shop/Empty', 'shop/Order', 'shop/Price%']);
    expect(page.reports[0]).toMatchObject({
      id: ids.Cart,
      reportId,
      classId: '',
      kind: 'class',
      filePath: 'src/shop/Cart.java',
      lineCoverage: 0.9,
      changed: true,
      methodCount: 3,
      codeAuthor: 'bea',
      branchCoverage: null,
    });
    expect(page.reports[1]?.lineCoverage).toBeNull();
  });

  it("lists a class's method rows by its id", async () => {
    const page = await details(`classId=${ids.Cart}&sortBy=lineCoverage`);
    expect(names(page)).toEqual(['remove(I)V', 'total()J', 'add(I)V']);
    expect(page.reports[0]).toMatchObject({
      id: ids.remove,
      classId: ids.Cart,
      kind: 'method',
      lineCoverage: 0,
      startLine: 10,
      endLine: 20,
      changed: true,
      changeStatus: 'modified',
    });
    expect(await details(`classId=${ids.Order}`)).toEqual({ reports: [], total: 0, next: null });
  });

  it('sorts by any counter both ways with absent figures last', async () => {
    expect(names(await details('sortBy=lineCoverage'))).toEqual([
      'shop/Order',
      'shop/Cart',
      'shop/Price%',
      'shop/Empty',
    ]);
    expect(names(await details('sortBy=lineCoverage&sortDesc=true'))).toEqual([
      'shop/Price%',
      'shop/Cart',
      'shop/Order',
      'shop/Empty',
    ]);
    expect(names(await details('sortBy=lineCovered&sortDesc=true'))[0]).toBe('shop/Price%');
    expect(names(await details('sortBy=branchCoverage'))[0]).toBe('shop/Order');
    expect(names(await details('sortBy=codeAuthor&sortDesc=true'))[0]).toBe('shop/Cart');
  });

  it('filters changed only, uncovered only and by name (wildcards taken literally)', async () => {
    expect(names(await details('changedOnly=true'))).toEqual(['shop/Cart']);
    expect(names(await details('uncoveredOnly=true'))).toEqual(['shop/Cart', 'shop/Order']);
    expect(names(await details(`classId=${ids.Cart}&changedOnly=true&uncoveredOnly=true`))).toEqual(['remove(I)V']);
    expect(names(await details('q=ORD'))).toEqual(['shop/Order']);
    expect(names(await details('q=%25'))).toEqual(['shop/Price%']);
    expect(names(await details('q=_'))).toEqual([]);
  });

  it('pages with a total of all matches, up to 100,000 rows a page', async () => {
    const pages = await Promise.all([1, 2].map((page) => details(`perPage=3&page=${page}`)));
    expect(pages.map((p) => [p.reports.length, p.total])).toEqual([
      [3, 4],
      [1, 4],
    ]);
    expect(await details('perPage=3&page=3')).toEqual({ reports: [], total: 4, next: null });
    expect(await details('q=nothing-like-this')).toEqual({ reports: [], total: 0, next: null });
    expect((await details('perPage=100000')).reports).toHaveLength(4);
    expect((await t.get(`/api/getReportDetails?reportId=${reportId}&perPage=100001`)).statusCode).toBe(400);
  });

  it('answers 404 for an unknown or malformed report, or a class of another report', async () => {
    const missing = [
      'reportId=00000000-0000-4000-8000-000000000000',
      'reportId=nope',
      `reportId=${otherReportId}&classId=${ids.Cart}`,
      `reportId=${reportId}&classId=${ids.add}`,
      `reportId=${reportId}&classId=x1`,
    ];
    for (const query of missing) {
      const res = await t.get(`/api/getReportDetails?${query}`);
      expect([query, res.statusCode, res.json().data?.error]).toEqual([query, 404, 'not-found']);
    }
  });

  it('needs read on Report', async () => {
    expect((await t.get(`/api/getReportDetails?reportId=${reportId}`, {})).statusCode).toBe(401);
    expect((await t.get(`/api/getReportDetails?reportId=${reportId}`, t.client)).statusCode).toBe(403);
  });
});
