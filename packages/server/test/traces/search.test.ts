import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useIntakeApp } from '../intake/support.ts';

const NOW_MS = Date.now();
const MS = 1_000_000n;
const at = (msAgo: number) => BigInt(NOW_MS - msAgo) * MS;

type Attr = { key: string; value: { stringValue: string } };
const attr = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
type SpanSpec = {
  trace: string;
  span: string;
  parent?: string;
  name: string;
  startNs: bigint;
  ms: number;
  attrs?: Attr[];
  error?: boolean;
  exception?: boolean;
};

function exportOf(service: string, version: string, spans: SpanSpec[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', service), attr('service.version', version)] },
        scopeSpans: [
          {
            spans: spans.map((s) => ({
              traceId: s.trace.repeat(32).slice(0, 32),
              spanId: s.span.repeat(16).slice(0, 16),
              ...(s.parent ? { parentSpanId: s.parent.repeat(16).slice(0, 16) } : {}),
              name: s.name,
              kind: s.parent ? 1 : 2,
              startTimeUnixNano: s.startNs.toString(),
              endTimeUnixNano: (s.startNs + BigInt(s.ms) * MS).toString(),
              attributes: s.attrs ?? [],
              ...(s.error ? { status: { code: 2, message: 'boom' } } : {}),
              ...(s.exception
                ? {
                    events: [
                      {
                        name: 'exception',
                        timeUnixNano: s.startNs.toString(),
                        attributes: [
                          attr('exception.type', 'IllegalStateException'),
                          attr('exception.message', 'stock is negative'),
                          attr(
                            'exception.stacktrace',
                            'IllegalStateException: stock is negative\n\tat Stock.take(Stock.java:12)',
                          ),
                        ],
                      },
                    ],
                  }
                : {}),
            })),
          },
        ],
      },
    ],
  });
}

const http = (method: string, route: string) => [attr('http.request.method', method), attr('http.route', route)];

describe('trace search and the trace detail (/otel/otel, issue 36)', () => {
  const t = useIntakeApp();
  const search = async (query: string) => {
    const res = await t.call('GET', `/api/traces?appId=${t.checkout.id}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.items as { traceId: string }[]).map((i) => i.traceId[0]);
  };

  beforeAll(async () => {
    const send = async (token: string, body: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/traces',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: body,
      });
      expect(res.json()).toEqual({});
    };
    await send(
      t.checkout.token,
      exportOf('orders', '1.0.0', [
        {
          trace: 'a',
          span: 'a1',
          name: 'GET /orders/:id',
          startNs: at(60_000),
          ms: 120,
          attrs: [...http('GET', '/orders/:id'), attr('test.case.id', 'CASE-1')],
        },
        {
          trace: 'a',
          span: 'a2',
          parent: 'a1',
          name: 'select',
          startNs: at(60_000) + 5n * MS,
          ms: 20,
          attrs: [attr('db.system', 'postgresql')],
        },
        {
          trace: 'b',
          span: 'b1',
          name: 'GET /fail',
          startNs: at(50_000),
          ms: 900,
          attrs: http('GET', '/fail'),
          error: true,
          exception: true,
        },
        { trace: 'd', span: 'd1', name: 'GET /old', startNs: at(2 * 86_400_000), ms: 10, attrs: http('GET', '/old') },
      ]),
    );
    await send(
      t.checkout.token,
      exportOf('billing', '1.1.0', [
        {
          trace: 'c',
          span: 'c1',
          name: 'POST /pay',
          startNs: at(40_000),
          ms: 40,
          attrs: [...http('POST', '/pay'), attr('test.case.id', 'CASE-2')],
        },
      ]),
    );
    // Another app's trace never shows in this app's search.
    await send(
      t.invoices.token,
      exportOf('orders', '1.0.0', [{ trace: 'e', span: 'e1', name: 'GET /', startNs: at(1000), ms: 1 }]),
    );
  });

  it('finds the last day by default, most recent first, summarised from the root span', async () => {
    const res = await t.call('GET', `/api/traces?appId=${t.checkout.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.items;
    expect(items.map((i: { traceId: string }) => i.traceId[0])).toEqual(['c', 'b', 'a']);
    expect(items[2]).toEqual({
      traceId: 'a'.repeat(32),
      rootName: 'GET /orders/:id',
      rootService: 'orders',
      interface: 'GET /orders/:id',
      start: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/),
      durationMs: 120,
      spanCount: 2,
      errorCount: 0,
      testCase: 'CASE-1',
      appVersion: '1.0.0',
    });
  });

  it.each([
    ['service=billing', ['c']],
    ['interface=GET%20%2Forders%2F%3Aid', ['a']],
    ['status=error', ['b']],
    ['status=ok', ['c', 'a']],
    ['minDurationMs=100&maxDurationMs=500', ['a']],
    ['attribute=db.system%3Dpostgresql', ['a']],
    ['testCase=CASE-2', ['c']],
    [
      `from=${new Date(NOW_MS - 3 * 86_400_000).toISOString()}&to=${new Date(NOW_MS - 86_400_000).toISOString()}`,
      ['d'],
    ],
  ])('filters by %s', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });

  it("shows a trace's spans with status, kind, events and its exception", async () => {
    const res = await t.call('GET', `/api/traces/${'b'.repeat(32)}?appId=${t.checkout.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const [span] = res.json().data.spans;
    expect(span).toMatchObject({
      spanId: 'b1'.repeat(8),
      parentSpanId: null,
      kind: 'server',
      status: 'error',
      statusMessage: 'boom',
      durationNs: '900000000',
      interface: 'GET /fail',
      exception: { type: 'IllegalStateException', message: 'stock is negative' },
      events: [{ name: 'exception', timeNs: at(50_000).toString() }],
    });
    expect(span.exception.stack).toContain('at Stock.take(Stock.java:12)');
  });

  it('answers 404 for a trace of another app or none, 400 for a malformed id or range, 401 signed out', async () => {
    expect((await t.call('GET', `/api/traces/${'e'.repeat(32)}?appId=${t.checkout.id}`)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/traces/xyz?appId=${t.checkout.id}`)).statusCode).toBe(400);
    const backwards = `from=${new Date(NOW_MS).toISOString()}&to=${new Date(NOW_MS - 1000).toISOString()}`;
    expect((await t.call('GET', `/api/traces?appId=${t.checkout.id}&${backwards}`)).statusCode).toBe(400);
    expect((await t.call('GET', `/api/traces?appId=${t.checkout.id}`, undefined, {})).statusCode).toBe(401);
  });
});
