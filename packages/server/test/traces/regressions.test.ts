import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useIntakeApp } from '../intake/support.ts';

const MS = 1_000_000n;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
let counter = 0;

/** `n` root calls of `route`, `ms(i)` long, the first `failing` of them failed, all in `version`. */
function calls(route: string, n: number, ms: (i: number) => number, failing = 0) {
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

describe('regression runs (/otel/regression, issue 36)', () => {
  const t = useIntakeApp();
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
      ...calls('/steady', 30, (i) => 20 + (i % 5)),
      ...calls('/slow', 30, (i) => 50 + (i % 7)),
      ...calls('/flaky', 40, () => 10, 1),
      ...calls('/gone', 5, () => 10),
    ]);
    await send('1.1', [
      ...calls('/steady', 30, (i) => 20 + (i % 5)),
      ...calls('/slow', 30, (i) => 400 + (i % 7)),
      ...calls('/flaky', 40, () => 10, 15),
      ...calls('/new', 5, () => 10),
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
