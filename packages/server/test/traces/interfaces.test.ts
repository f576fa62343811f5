import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useIntakeApp } from '../intake/support.ts';

const MS = 1_000_000n;
const base = BigInt(Date.now() - 3_600_000) * MS;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** A call of GET /orders/{id} (its server span and a code span), or of POST /pay. */
function call(n: number, ms: number, opts: { route?: string; failed?: boolean; testCase?: string } = {}) {
  const traceId = n.toString(16).padStart(32, '0');
  const start = base + BigInt(n) * 60_000n * MS;
  const route = opts.route ?? '/orders/{id}';
  return [
    {
      traceId,
      spanId: `${n.toString(16).padStart(15, '0')}1`,
      name: `GET ${route}`,
      kind: 2,
      startTimeUnixNano: start.toString(),
      endTimeUnixNano: (start + BigInt(ms) * MS).toString(),
      attributes: [
        str('http.request.method', 'GET'),
        str('http.route', route),
        ...(opts.testCase ? [str('test.case.id', opts.testCase)] : []),
      ],
      ...(opts.failed ? { status: { code: 2, message: 'boom' } } : {}),
    },
    {
      traceId,
      spanId: `${n.toString(16).padStart(15, '0')}2`,
      parentSpanId: `${n.toString(16).padStart(15, '0')}1`,
      name: 'Orders.find',
      kind: 1,
      startTimeUnixNano: (start + MS).toString(),
      endTimeUnixNano: (start + 2n * MS).toString(),
      attributes: [
        str('code.function.name', 'find'),
        str('code.namespace', 'shop.Orders'),
        str('code.file.path', 'src/Orders.java'),
      ],
    },
  ];
}

describe('interface analytics (/otel/interfaceAnalytic, issue 36)', () => {
  const t = useIntakeApp();
  const get = async (url: string) => {
    const res = await t.call('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    const durations = [10, 20, 30, 40, 50, 60, 70, 80, 90, 1000];
    const spans = [
      ...durations.flatMap((ms, i) => call(i + 1, ms, { failed: i === 9, testCase: i < 3 ? 'CASE-1' : undefined })),
      ...call(20, 5, { route: '/pay' }),
    ];
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
      payload: JSON.stringify({
        resourceSpans: [{ resource: { attributes: [str('service.name', 'shop')] }, scopeSpans: [{ spans }] }],
      }),
    });
    expect(res.json()).toEqual({});
  });

  it('lists each interface with its calls, error rate and percentiles of its server spans', async () => {
    const { items } = await get(`/api/traces/interfaces?appId=${t.checkout.id}`);
    expect(items.map((i: { interface: string }) => i.interface)).toEqual(['GET /orders/{id}', 'GET /pay']);
    expect(items[0]).toMatchObject({ calls: 10, errors: 1, errorRate: 0.1, p50Ms: 55 });
    expect(items[0].p95Ms).toBeCloseTo(595.5, 5);
    expect(items[0].p99Ms).toBeCloseTo(919.1, 5);
  });

  it('shows one interface: histogram, slowest and failing calls, its test cases and code methods', async () => {
    const q = new URLSearchParams({ appId: t.checkout.id, interface: 'GET /orders/{id}' });
    const d = await get(`/api/traces/interface?${q}`);
    expect(d.summary.calls).toBe(10);
    expect(d.series.reduce((n: number, b: { calls: number }) => n + b.calls, 0)).toBe(10);
    expect(d.histogram.reduce((n: number, b: { calls: number }) => n + b.calls, 0)).toBe(10);
    expect(d.histogram[0]).toMatchObject({ fromMs: 10, calls: 9 });
    expect(d.histogram.at(-1).calls).toBe(1);
    expect(d.slowest[0]).toMatchObject({ durationMs: 1000, failed: true });
    expect(d.failing.map((c: { durationMs: number }) => c.durationMs)).toEqual([1000]);
    expect(d.testCases).toEqual([expect.objectContaining({ testCase: 'CASE-1', calls: 3 })]);
    expect(d.methods).toEqual([{ function: 'find', namespace: 'shop.Orders', file: 'src/Orders.java', calls: 10 }]);
  });

  it('answers 404 for an interface without calls, and 401 without a session', async () => {
    const q = new URLSearchParams({ appId: t.checkout.id, interface: 'GET /nothing' });
    expect((await t.call('GET', `/api/traces/interface?${q}`)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/traces/interfaces?appId=${t.checkout.id}`, undefined, {})).statusCode).toBe(401);
  });
});
