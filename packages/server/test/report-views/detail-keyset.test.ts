import { beforeAll, describe, expect, it } from 'vitest';
import { useReportViews } from './support.ts';

type Detail = { id: string; name: string; lineCoverage: number | null; lineTotal: number | null; changed: boolean };
type Page = { reports: Detail[]; total: number | null; next: string | null };

/** Each class's figures: ties of coverage and of totals, absent figures, so every key has ties and nulls. */
const CLASSES = Array.from({ length: 41 }, (_, i) => ({
  name: `pkg/C${String((i * 17) % 41).padStart(2, '0')}`,
  lineCovered: i % 9 === 0 ? null : i % 4,
  lineTotal: i % 9 === 0 ? null : 4 + (i % 2) * 4,
  changed: i % 3 === 0,
}));

describe('getReportDetails: keyset pages (issue 41)', () => {
  const t = useReportViews();
  let reportId = '';
  const ids = new Map<string, string>();
  const details = (query: string) => t.ok<Page>('GET', `/api/getReportDetails?reportId=${reportId}&${query}`);

  /** Walks every page by `next` and returns the ids in the order they came. */
  async function walk(query: string, perPage: number): Promise<{ ids: string[]; totals: (number | null)[] }> {
    const seen: string[] = [];
    const totals: (number | null)[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const page: Page = await details(
        `${query}&perPage=${perPage}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      );
      seen.push(...page.reports.map((r) => r.id));
      totals.push(page.total);
      after = page.next;
      if (!after) return { ids: seen, totals };
    }
    throw new Error('the walk never ended');
  }

  /** The expected order, computed here: key with absent values last in either direction, the id breaking ties. */
  function expected(key: (c: (typeof CLASSES)[number]) => number | string | null, desc: boolean, keep = CLASSES) {
    const sign = desc ? -1 : 1;
    return [...keep]
      .map((c) => ({ id: ids.get(c.name) ?? '', value: key(c) }))
      .sort((a, b) => {
        if (a.value === null || b.value === null) {
          if (a.value !== b.value) return a.value === null ? 1 : -1;
        } else if (a.value !== b.value) {
          return sign * (a.value < b.value ? -1 : 1);
        }
        return sign * (Number(a.id) - Number(b.id));
      })
      .map((r) => r.id);
  }

  const coverage = (c: (typeof CLASSES)[number]) =>
    c.lineCovered === null || !c.lineTotal ? null : c.lineCovered / c.lineTotal;

  beforeAll(async () => {
    const { appId } = await t.createApp('Keyset', 'keyset');
    reportId = await t.insertReport({ appId, name: 'many classes' });
    for (const c of CLASSES) ids.set(c.name, await t.insertDetail({ reportId, ...c }));
  });

  it('every sort, both ways, in pages of 6: each row once, in order, with no gap', async () => {
    const cases = [
      ['sortBy=name', (c: (typeof CLASSES)[number]) => c.name],
      ['sortBy=lineCoverage', coverage],
      ['sortBy=lineTotal', (c: (typeof CLASSES)[number]) => c.lineTotal],
    ] as const;
    for (const [query, key] of cases) {
      for (const desc of [false, true]) {
        const { ids: got, totals } = await walk(`${query}&sortDesc=${desc}`, 6);
        expect([query, desc, got]).toEqual([query, desc, expected(key, desc)]);
        // The first page counts; the pages after it do not count again.
        expect(totals[0]).toBe(CLASSES.length);
        expect(totals.slice(1).every((n) => n === null)).toBe(true);
      }
    }
  });

  it('filters hold across pages (changed only, by coverage descending)', async () => {
    const { ids: got, totals } = await walk('sortBy=lineCoverage&sortDesc=true&changedOnly=true', 4);
    expect(got).toEqual(
      expected(
        coverage,
        true,
        CLASSES.filter((c) => c.changed),
      ),
    );
    expect(totals[0]).toBe(CLASSES.filter((c) => c.changed).length);
  });

  it('a row written before the cursor does not shift the next page (no duplicate, no gap)', async () => {
    const first = await details('sortBy=name&perPage=5');
    const { appId } = await t.createApp('Keyset2', 'keyset2');
    const other = await t.insertReport({ appId, name: 'other' });
    await t.insertDetail({ reportId: other, name: 'aaa/First' });
    const added = await t.insertDetail({ reportId, name: 'aaa/First' });
    const second = await details(`sortBy=name&perPage=5&after=${encodeURIComponent(first.next ?? '')}`);
    const byOffset = expected((c) => c.name, false).slice(5, 10);
    expect(second.reports.map((r) => r.id)).toEqual(byOffset);
    expect(second.reports.map((r) => r.id)).not.toContain(added);
  });

  it('the last page has no next; a page that ends on an absent figure continues among the absent ones', async () => {
    const all = (await details('sortBy=lineCoverage&perPage=1000')).reports;
    const nulls = all.filter((r) => r.lineCoverage === null).length;
    const present = all.length - nulls;
    expect(nulls).toBeGreaterThan(2);
    const page = await details(`sortBy=lineCoverage&perPage=${present + 1}`);
    expect(page.reports.at(-1)?.lineCoverage).toBeNull();
    const rest = await details(`sortBy=lineCoverage&perPage=100&after=${encodeURIComponent(page.next ?? '')}`);
    expect(rest.reports).toHaveLength(nulls - 1);
    expect(rest.next).toBeNull();
  });

  it('refuses a cursor it did not give (400), changing nothing', async () => {
    const byName = await details('sortBy=name&perPage=2');
    const bad = [
      'not base64 json',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('[0.5,"1; drop table reports"]').toString('base64url'),
      byName.next ?? '',
    ];
    for (const after of bad) {
      const res = await t.get(
        `/api/getReportDetails?reportId=${reportId}&sortBy=lineCoverage&after=${encodeURIComponent(after)}`,
      );
      expect([after, res.statusCode]).toEqual([after, 400]);
    }
    expect((await details('sortBy=name&perPage=100')).reports.length).toBeGreaterThan(CLASSES.length);
  });
});
