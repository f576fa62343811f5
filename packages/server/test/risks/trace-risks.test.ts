import type { RiskHistoryEntry, RiskItem } from '@sextant/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { traceRiskReads } from '../../src/modules/traces/index.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';

const MS = 1_000_000n;
const NOW = Date.now();
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** One OTLP/HTTP JSON export of server spans: `[trace, route, ms, exception type or null]`. */
function exportOf(spans: [string, string, number, string | null][]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'orders'), attr('service.version', '2.0.0')] },
        scopeSpans: [
          {
            spans: spans.map(([trace, route, ms, exception], i) => {
              const start = BigInt(NOW - 60_000 + i * 1000) * MS;
              return {
                traceId: trace.repeat(32).slice(0, 32),
                spanId: `${i + 1}`.padStart(16, '0'),
                name: `GET ${route}`,
                kind: 2,
                startTimeUnixNano: start.toString(),
                endTimeUnixNano: (start + BigInt(ms) * MS).toString(),
                attributes: [attr('http.request.method', 'GET'), attr('http.route', route)],
                ...(exception
                  ? {
                      status: { code: 2, message: 'failed' },
                      events: [
                        {
                          name: 'exception',
                          timeUnixNano: start.toString(),
                          attributes: [attr('exception.type', exception), attr('exception.message', 'no')],
                        },
                      ],
                    }
                  : {}),
              };
            }),
          },
        ],
      },
    ],
  });
}

/** Exception and performance risks from spans received over OTLP/HTTP (issue 34). */
describe('trace risks', () => {
  const t = useIntakeApp();
  const list = async (query: string) => {
    const res = await t.call('GET', `/api/risks?perPage=50&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: RiskItem[]; total: number };
  };
  const run = (now = Date.now()) => t.app.risks.recordTraceRisks(traceRiskReads(t.db), 1, now);

  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
      payload: exportOf([
        ['a', '/orders/:id', 30, 'IllegalStateException'],
        ['b', '/orders/:id', 40, 'IllegalStateException'],
        ['c', '/orders/:id', 20, 'TimeoutException'],
        ['d', '/slow', 2500, null],
        ['e', '/slow', 3200, null],
        ['f', '/fast', 15, null],
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('groups exceptions by app, interface and type, and flags interfaces slower than the warning threshold', async () => {
    expect(await run()).toEqual({ opened: 3, resolved: 0 });
    const exceptions = await list(`kind=exception&appId=${t.checkout.id}&sortBy=changedLines`);
    expect(exceptions.items.map((i) => [i.className, i.methodName, i.occurrences, i.state])).toEqual([
      ['GET /orders/:id', 'IllegalStateException', 2, 'observing'],
      ['GET /orders/:id', 'TimeoutException', 1, 'observing'],
    ]);
    const [first] = exceptions.items;
    expect(first?.sampleTraceId).toBe('b'.repeat(32));
    expect(first?.reportId).toBeNull();
    expect(Date.parse(first?.lastSeenAt ?? '')).toBeGreaterThan(Date.parse(first?.firstSeenAt ?? ''));
    const slow = await list(`kind=performance&appId=${t.checkout.id}`);
    expect(slow.items.map((i) => [i.className, i.version])).toEqual([['GET /slow', '2.0.0']]);
    expect(slow.items[0]?.p95Ms).toBeGreaterThan(2500);
    // A second run over the same spans changes nothing.
    expect(await run()).toEqual({ opened: 0, resolved: 0 });
    expect((await list(`appId=${t.checkout.id}`)).total).toBe(3);
  });

  it('resolves what the last week of traces no longer shows, with the history saying so', async () => {
    expect(await run(NOW + 8 * 86_400_000)).toEqual({ opened: 0, resolved: 3 });
    const resolved = await list(`appId=${t.checkout.id}&state=resolved`);
    expect(resolved.total).toBe(3);
    const res = await t.call('GET', `/api/risks/${resolved.items[0]?.id}/history`);
    const history = res.json().data as RiskHistoryEntry[];
    expect(history.map((h) => [h.fromState, h.toState])).toEqual([
      [null, 'observing'],
      ['observing', 'resolved'],
    ]);
    // Seen again: observed anew.
    expect(await run()).toEqual({ opened: 0, resolved: 0 });
    expect((await list(`appId=${t.checkout.id}&state=observing`)).total).toBe(3);
  });
});
