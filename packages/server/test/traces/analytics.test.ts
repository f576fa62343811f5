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

let counter = 0;

/** `n` root calls of `route`, `ms(i)` long, the first `failing` of them failed, all in `version`. */
function runCalls(route: string, n: number, ms: (i: number) => number, failing = 0) {
  return Array.from({ length: n }, (_, i) => {
    counter += 1;
    const start = BigInt(Date.now() - 3_600_000 + counter * 1000) * MS;
    return {
      traceId: counter.toString(16).padStart(32, '0'),
      spanId: counter.toString(16).padStart(16, '0'),
      name: route,
      kind: 2,
      startTimeUnixNano: start.toString(),
      endTimeUnixNano: (start + BigInt(ms(i)) * MS).toString(),
      attributes: [str('http.request.method', 'GET'), str('http.route', route), str('test.case.id', `CASE-${route}`)],
      ...(i < failing ? { status: { code: 2 } } : {}),
    };
  });
}

/** One app under test for both read models (a server takes minutes to set up on a busy machine). */
describe('trace analytics', () => {
  const t = useIntakeApp();

  describe('interface analytics (/otel/interfaceAnalytic, issue 36)', () => {
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
      expect(items[0].p95Ms).toBeCloseTo(590.5, 5);
      expect(items[0].p99Ms).toBeCloseTo(918.1, 5);
    });

    it('shows one interface: histogram, slowest and failing calls, its test cases and code methods', async () => {
      const q = new URLSearchParams({ appId: t.checkout.id, interface: 'GET /orders/{id}' });
      const d = await get(`/api/traces/interface?${q}`);
      expect(d.summary.calls).toBe(10);
      expect(d.series.reduce((n: number, b: { calls: number }) => n + b.calls, 0)).toBe(10);
      expect(d.histogram.reduce((n: number, b: { calls: number }) => n + b.calls, 0)).toBe(10);
      // 20 buckets of 49.5 ms from 10 ms: 10–50 in the first, 60–90 in the second, 1000 in the last.
      expect(d.histogram[0]).toMatchObject({ fromMs: 10, calls: 5 });
      expect(d.histogram[1]?.calls).toBe(4);
      expect(d.histogram.at(-1).calls).toBe(1);
      expect(d.slowest[0]).toMatchObject({ durationMs: 1000, failed: true });
      expect(d.failing.map((c: { durationMs: number }) => c.durationMs)).toEqual([1000]);
      expect(d.testCases).toEqual([expect.objectContaining({ testCase: 'CASE-1', calls: 3 })]);
      expect(d.methods).toEqual([{ function: 'find', namespace: 'shop.Orders', file: 'src/Orders.java', calls: 10 }]);
    });

    it('answers 404 for an interface without calls, and 401 without a session', async () => {
      const q = new URLSearchParams({ appId: t.checkout.id, interface: 'GET /nothing' });
      expect((await t.call('GET', `/api/traces/interface?${q}`)).statusCode).toBe(404);
      expect((await t.call('GET', `/api/traces/interfaces?appId=${t.checkout.id}`, undefined, {})).statusCode).toBe(
        401,
      );
    });
  });

  describe('regression runs (/otel/regression, issue 36)', () => {
    const send = async (version: string, spans: unknown[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/traces',
        headers: { ...bearer(t.invoices.token), 'content-type': 'application/json' },
        payload: JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: [str('service.name', 'inv'), str('service.version', version)] },
              scopeSpans: [{ spans }],
            },
          ],
        }),
      });
      expect(res.json()).toEqual({});
    };

    beforeAll(async () => {
      await send('1.0', [
        ...runCalls('/steady', 30, (i) => 20 + (i % 5)),
        ...runCalls('/slow', 30, (i) => 50 + (i % 7)),
        ...runCalls('/flaky', 40, () => 10, 1),
        ...runCalls('/gone', 5, () => 10),
      ]);
      await send('1.1', [
        ...runCalls('/steady', 30, (i) => 20 + (i % 5)),
        ...runCalls('/slow', 30, (i) => 400 + (i % 7)),
        ...runCalls('/flaky', 40, () => 10, 15),
        ...runCalls('/new', 5, () => 10),
      ]);
    });

    it('compares two versions: added, removed, slower by Mann-Whitney U, failing more; and stores the run', async () => {
      const made = await t.call('POST', '/api/traces/regressions', {
        appId: t.invoices.id,
        name: '1.0 → 1.1',
        base: { kind: 'version', version: '1.0' },
        candidate: { kind: 'version', version: '1.1' },
      });
      expect(made.statusCode, made.body).toBe(200);
      const run = made.json().data;
      const verdicts = Object.fromEntries(
        run.result.interfaces.map((i: { interface: string; verdicts: string[] }) => [i.interface, i.verdicts]),
      );
      expect(verdicts).toEqual({
        'GET /flaky': ['failing-more'],
        'GET /gone': ['removed'],
        'GET /new': ['added'],
        'GET /slow': ['slower'],
        'GET /steady': [],
      });
      const slow = run.result.interfaces.find((i: { interface: string }) => i.interface === 'GET /slow');
      expect(slow.pSlower).toBeLessThan(1e-6);
      expect(slow.p95DeltaMs).toBeCloseTo(350, 0);
      expect(run.result.test).toContain('Mann-Whitney U');
      expect(run.counts).toMatchObject({ added: 1, removed: 1, slower: 1, 'failing-more': 1, unchanged: 1 });
      expect(run.result.testCases.candidate).toContain('CASE-/new');
      expect(run.result.testCases.base).not.toContain('CASE-/new');

      const stored = await t.call('GET', `/api/traces/regressions/${run.id}`);
      expect(stored.json().data).toEqual(run);
      const list = await t.call('GET', `/api/traces/regressions?appId=${t.invoices.id}`);
      expect(list.json().data.items.map((r: { id: string }) => r.id)).toEqual([run.id]);
    });

    it('refuses a backward window, and a developer may read runs but not make one', async () => {
      const now = Date.now();
      const backward = await t.call('POST', '/api/traces/regressions', {
        appId: t.invoices.id,
        name: 'bad',
        base: { kind: 'window', from: new Date(now).toISOString(), to: new Date(now - 1000).toISOString() },
        candidate: { kind: 'version', version: '1.1' },
      });
      expect(backward.statusCode).toBe(400);
      expect(backward.json().data.fields).toHaveProperty('base');
      const devMade = await t.call(
        'POST',
        '/api/traces/regressions',
        {
          appId: t.invoices.id,
          name: 'x',
          base: { kind: 'version', version: '1.0' },
          candidate: { kind: 'version', version: '1.1' },
        },
        t.dev,
      );
      expect(devMade.statusCode).toBe(403);
      expect((await t.call('GET', '/api/traces/regressions', undefined, t.dev)).statusCode).toBe(200);
    });
  });
});
