import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { CodeLinks } from '../../src/modules/traces/code-links.ts';
import { TraceReads } from '../../src/modules/traces/reads.ts';
import { TraceSearchService } from '../../src/modules/traces/search-service.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';

const NOW_MS = Date.now();
const MINUTE = 60_000;
const iso = (minutesAgo: number) => new Date(NOW_MS - minutesAgo * MINUTE).toISOString();
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** One single-span trace (`digit` repeated as its id) of `service`, started `minutesAgo`. */
function exportOf(service: string, digit: string, minutesAgo: number): string {
  const startNs = BigInt(NOW_MS - minutesAgo * MINUTE) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', service)] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: digit.repeat(32),
                spanId: digit.repeat(16),
                name: 'GET /x',
                kind: 2,
                startTimeUnixNano: startNs.toString(),
                endTimeUnixNano: (startNs + 5_000_000n).toString(),
                attributes: [attr('http.request.method', 'GET'), attr('http.route', '/x')],
              },
            ],
          },
        ],
      },
    ],
  });
}

describe('a search no index serves is bounded: past the cap it asks for a narrower window (issue 36)', () => {
  const t = useIntakeApp();
  // Three spans examined at most (the server's cap is 500,000; the rule is the same).
  const search = () => new TraceSearchService(new TraceReads(t.db, 3), new CodeLinks(t.db));
  const tracesOf = (items: { traceId: string }[]) => items.map((i) => i.traceId[0]);

  beforeAll(async () => {
    // billing's one span is the oldest of six: the five of orders are newer.
    const sent: [string, string, number][] = [
      ['billing', '6', 6],
      ['orders', '5', 5],
      ['orders', '4', 4],
      ['orders', '3', 3],
      ['orders', '2', 2],
      ['orders', '1', 1],
    ];
    for (const [service, digit, minutesAgo] of sent) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/traces',
        headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
        payload: exportOf(service, digit, minutesAgo),
      });
      expect(res.json()).toEqual({});
    }
  });

  it('refuses a service search whose window holds more spans than the cap and that did not fill its page', async () => {
    const refused = await search()
      .search({ appId: t.checkout.id, service: 'billing', limit: 100 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, error: 'validation-failed' });
    expect((refused as ApiError).fields?.from).toContain('narrow the time range');
    // A longest duration is no index's either.
    await expect(search().search({ appId: t.checkout.id, maxDurationMs: 1, limit: 100 })).rejects.toThrow(ApiError);
  });

  it('answers the same search over a window holding no more than the cap', async () => {
    const items = await search().search({
      appId: t.checkout.id,
      service: 'billing',
      from: iso(6.5),
      to: iso(3.5),
      limit: 100,
    });
    expect(tracesOf(items)).toEqual(['6']);
  });

  it('answers a search past the cap that filled its page: its newest matches were read', async () => {
    const items = await search().search({ appId: t.checkout.id, service: 'orders', limit: 2 });
    expect(tracesOf(items)).toEqual(['1', '2']);
  });

  it('does not bound a search the indexes serve', async () => {
    const items = await search().search({ appId: t.checkout.id, interface: 'GET /x', limit: 100 });
    expect(tracesOf(items)).toEqual(['1', '2', '3', '4', '5', '6']);
  });
});
