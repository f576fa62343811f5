import { beforeAll, describe, expect, it } from 'vitest';
import { reportDetails, reports } from '../../src/db/schema/index.ts';
import { methodOf } from '../../src/modules/traces/code-links.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';

const TRACE = '5b8efff798038103d269b633813fc60c';
const nowNs = BigInt(Date.now()) * 1_000_000n;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

type Span = { spanId: string; name: string; attributes: ReturnType<typeof str>[] };
const span = (spanId: string, name: string, ...attributes: ReturnType<typeof str>[]): Span => ({
  spanId: spanId.repeat(16).slice(0, 16),
  name,
  attributes,
});

describe('spans link their code method to its coverage report (issue 36)', () => {
  const t = useIntakeApp();
  type Coverage = { reportId: string; filePath: string | null; line: number | null } | null;
  let coverageOf: Map<string, Coverage>;
  const ids: Record<string, string> = {};

  /** A successful report of an app, finished at `finishedAt`, knowing the given classes and methods. */
  async function report(
    appId: string,
    version: string,
    finishedAt: string,
    classes: { name: string; file: string; methods: [string, number][] }[],
  ): Promise<string> {
    const [row] = await t.db
      .insert(reports)
      .values({
        appId,
        name: `r-${version}`,
        baseVersion: 'base',
        newVersion: version,
        envType: 'test',
        testType: 1,
        coverageType: 'full',
        status: 'SUCCESS',
        finishedAt: new Date(finishedAt),
      })
      .returning({ id: reports.id });
    const reportId = row?.id as string;
    for (const c of classes) {
      const [cls] = await t.db
        .insert(reportDetails)
        .values({ reportId, kind: 'class', name: c.name, filePath: c.file })
        .returning({ id: reportDetails.id });
      for (const [name, line] of c.methods) {
        await t.db
          .insert(reportDetails)
          .values({ reportId, classId: cls?.id, kind: 'method', name, filePath: c.file, startLine: line });
      }
    }
    return reportId;
  }

  beforeAll(async () => {
    const repo = { name: 'shop/OrderRepository', file: 'src/main/java/shop/OrderRepository.java' };
    // The version's own report, older than another version's: the version's wins.
    ids.v2 = await report(t.checkout.id, '2.0.0', '2026-01-01T00:00:00Z', [{ ...repo, methods: [['load(I)V', 42]] }]);
    ids.v1 = await report(t.checkout.id, '1.0.0', '2026-02-01T00:00:00Z', [
      { ...repo, methods: [['load(I)V', 40]] },
      { name: 'src/cart.ts', file: 'src/cart.ts', methods: [['formatTotal', 7]] },
    ]);
    // Another app's report knows a method the checkout spans name: it is never linked.
    ids.other = await report(t.invoices.id, '2.0.0', '2026-03-01T00:00:00Z', [
      { name: 'billing/Invoice', file: 'billing/Invoice.java', methods: [['total()J', 3]] },
    ]);
    const spans = [
      span('a', 'new-semconv', str('code.function.name', 'shop.OrderRepository.load')),
      span('b', 'old-semconv', str('code.namespace', 'shop.OrderRepository'), str('code.function', 'load')),
      span('c', 'file-only', str('code.function', 'formatTotal'), str('code.filepath', '/srv/app/src/cart.ts')),
      span('d', 'unknown', str('code.function.name', 'shop.OrderRepository.save')),
      span('e', 'other-app', str('code.function.name', 'billing.Invoice.total')),
      span('f', 'no-code'),
    ];
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
      payload: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [str('service.name', 'orders'), str('service.version', '2.0.0')] },
            scopeSpans: [
              {
                spans: spans.map((s, i) => ({
                  traceId: TRACE,
                  ...s,
                  startTimeUnixNano: (nowNs + BigInt(i)).toString(),
                  endTimeUnixNano: (nowNs + 1_000_000n).toString(),
                })),
              },
            ],
          },
        ],
      }),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const res = await t.call('GET', `/api/traces/${TRACE}?appId=${t.checkout.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json().data as { spans: { name: string; code: { coverage: Coverage } | null }[] };
    coverageOf = new Map(detail.spans.map((s) => [s.name, s.code ? s.code.coverage : null]));
  });

  it("links a class method, either semantic-convention generation, to the span's version's report", () => {
    const expected = { reportId: ids.v2, filePath: 'src/main/java/shop/OrderRepository.java', line: 42 };
    expect(coverageOf.get('new-semconv')).toEqual(expected);
    expect(coverageOf.get('old-semconv')).toEqual(expected);
  });

  it("falls back to the newest report that knows it, by method name in the span's (absolute) file", () => {
    expect(coverageOf.get('file-only')).toEqual({ reportId: ids.v1, filePath: 'src/cart.ts', line: 7 });
  });

  it("links nothing for a method no report of the app knows, nor another app's", () => {
    expect(coverageOf.get('unknown')).toBeNull();
    expect(coverageOf.get('other-app')).toBeNull();
    expect(coverageOf.has('no-code')).toBe(true);
    expect(coverageOf.get('no-code')).toBeNull();
  });

  it('reads the method and its class from code.function', () => {
    const of = (fn: string, namespace: string | null = null) =>
      methodOf({ function: fn, namespace, file: null, version: null });
    expect(of('shop.Repo.load')).toEqual({ method: 'load', namespace: 'shop.Repo' });
    expect(of('Repo::load')).toEqual({ method: 'load', namespace: 'Repo' });
    expect(of('load', 'shop.Repo')).toEqual({ method: 'load', namespace: 'shop.Repo' });
    expect(of('load')).toEqual({ method: 'load', namespace: null });
  });
});
