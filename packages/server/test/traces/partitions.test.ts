import { DEFAULT_SETTINGS } from '@sextant/api';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dayOf, TracesRepository } from '../../src/modules/traces/repository.ts';
import { TracesService } from '../../src/modules/traces/service.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';
import { storedSpans } from './support.ts';

const DAY_NS = 86_400_000_000_000n;
const NOW_NS = BigInt(Date.now()) * 1_000_000n;

const exportAt = (spanId: string, startNs: bigint) =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'orders-service' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: '0af7651916cd43dd8448eb211c80319c',
                spanId,
                name: 'GET /',
                startTimeUnixNano: startNs.toString(),
                endTimeUnixNano: (startNs + 1000n).toString(),
              },
            ],
          },
        ],
      },
    ],
  });

describe('spans are kept in one partition per day, and retention drops whole days (issue 36)', () => {
  const t = useIntakeApp();
  const send = (spanId: string, startNs: bigint) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
      payload: exportAt(spanId, startNs),
    });
  const partitionRows = async (day: string) =>
    Number((await t.db.execute<{ n: string }>(sql.raw(`select count(*) as n from spans_p${day}`))).rows[0]?.n);
  const old = NOW_NS - 3n * DAY_NS;

  it('writes each span into its own day partition of the partitioned spans table', async () => {
    expect((await send('1000000000000001', old)).statusCode).toBe(200);
    expect((await send('1000000000000002', NOW_NS - 1000n)).statusCode).toBe(200);
    const kind = await t.db.execute<{ relkind: string }>(sql`select relkind from pg_class where relname = 'spans'`);
    expect(kind.rows[0]?.relkind).toBe('p');
    const repository = new TracesRepository(t.db);
    expect(await repository.days()).toEqual([dayOf(old), dayOf(NOW_NS - 1000n)]);
    expect(await partitionRows(dayOf(old))).toBe(1);
    expect(await partitionRows(dayOf(NOW_NS - 1000n))).toBe(1);
  });

  it('makes a new day once when exports for it arrive together (PostgreSQL: concurrent creators)', async () => {
    const day = NOW_NS - 2n * DAY_NS;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send(`20000000000000${String(i).padStart(2, '0')}`, day + BigInt(i))),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(await partitionRows(dayOf(day))).toBe(8);
  });

  it('drops the days past the retention of /system/traceManage, and only those', async () => {
    const retention = new TracesService(
      new TracesRepository(t.db),
      async () => ({ ...DEFAULT_SETTINGS, traceRetentionDays: 2 }),
      1,
      () => Number(NOW_NS / 1_000_000n),
    );
    expect(await retention.enforceRetention()).toEqual([dayOf(old)]); // now − 2 days is the oldest day kept
    expect((await storedSpans(t.db, t.checkout.id)).map((r) => r.span_id)).not.toContain('1000000000000001');
    expect((await storedSpans(t.db, t.checkout.id)).map((r) => r.span_id)).toContain('1000000000000002');
    expect(await new TracesRepository(t.db).days()).toEqual([dayOf(NOW_NS - 2n * DAY_NS), dayOf(NOW_NS - 1000n)]);
  });

  it('makes a day again when another process dropped it after this one had made it', async () => {
    // The server's repository still believes the old day exists; the retention above dropped it.
    const res = await send('1000000000000003', old + 5n);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    expect(await partitionRows(dayOf(old))).toBe(1);
  });
});
