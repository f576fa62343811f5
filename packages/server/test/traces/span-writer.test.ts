import { DEFAULT_SETTINGS } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { factsOf } from '../../src/modules/traces/normalise.ts';
import type { DecodedResourceSpans, DecodedSpan } from '../../src/modules/traces/otlp-model.ts';
import { type SpanRow, TracesRepository } from '../../src/modules/traces/repository.ts';
import { TracesService } from '../../src/modules/traces/service.ts';
import { SpanWriter } from '../../src/modules/traces/span-writer.ts';
import { useIntakeApp } from '../intake/support.ts';
import { storedSpans } from './support.ts';

const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const DAY_NS = 86_400_000_000_000n;

/** A span of trace `trace` (one hex digit repeated) numbered `n`, starting `offsetNs` from now. */
function span(trace: string, n: number, offsetNs = 0n): DecodedSpan {
  return {
    traceId: trace.repeat(32),
    spanId: n.toString(16).padStart(16, '0'),
    parentSpanId: null,
    name: `op-${n}`,
    kind: 2,
    startNs: NOW_NS - 1_000_000n + offsetNs,
    endNs: NOW_NS + offsetNs,
    statusCode: 0,
    statusMessage: '',
    attributes: { 'http.request.method': 'GET', 'http.route': `/r/${n}` },
    events: [],
    links: [],
  };
}

const exportOf = (...spans: DecodedSpan[]): DecodedResourceSpans[] => [
  { resource: { 'service.name': 'orders-service' }, spans },
];

function rowOf(appId: string, s: DecodedSpan): SpanRow {
  return {
    appId,
    traceId: s.traceId as string,
    spanId: s.spanId as string,
    parentSpanId: null,
    name: s.name,
    kind: s.kind,
    service: 'orders-service',
    appVersion: null,
    startNs: s.startNs,
    durationNs: s.endNs - s.startNs,
    statusCode: 0,
    statusMessage: '',
    ...factsOf(s, {}),
    attributes: JSON.stringify(s.attributes),
    resource: '{}',
    events: '[]',
    links: '[]',
  };
}

describe('exports arriving together are written in one statement, each still answered for itself (issue 36)', () => {
  const t = useIntakeApp();
  const serviceOn = () =>
    new TracesService(
      new TracesRepository(t.db),
      async () => DEFAULT_SETTINGS,
      8,
      Date.now,
      (error) => {
        throw error;
      },
    );
  const spanIds = async () => (await storedSpans(t.db, t.checkout.id)).map((r) => r.span_id);

  it('joins three concurrent exports into one insert; each answer counts its own refused spans', async () => {
    const service = serviceOn();
    const [a, b, c] = await Promise.all([
      service.ingest(
        t.checkout.id,
        exportOf(span('a', 1), span('a', 2), span('a', 3), { ...span('a', 4), traceId: null }),
      ),
      service.ingest(t.checkout.id, exportOf(span('b', 5), span('b', 6))),
      service.ingest(t.checkout.id, exportOf(span('c', 7), span('c', 8, 2n * DAY_NS), span('c', 9, 3n * DAY_NS))),
    ]);
    expect(a).toEqual({
      accepted: 3,
      rejected: 1,
      errorMessage: '1 span(s) with a trace id that is not 16 bytes, or all zeros',
    });
    expect(b).toEqual({ accepted: 2, rejected: 0, errorMessage: '' });
    expect(c).toEqual({
      accepted: 1,
      rejected: 2,
      errorMessage: '2 span(s) with a start more than a day in the future',
    });
    expect(service.writer.statements).toBe(1);
    expect((await spanIds()).sort()).toEqual([1, 2, 3, 5, 6, 7].map((n) => n.toString(16).padStart(16, '0')));
  });

  it('fails only the export the database refuses; the exports joined with it are stored', async () => {
    const repository = new TracesRepository(t.db);
    const writer = new SpanWriter((rows) => repository.insertSpans(rows));
    // A code line past the 32-bit column: intake's normalising never sends one, the database refuses it.
    const refused = { ...rowOf(t.checkout.id, span('e', 21)), codeLine: 2 ** 40 };
    const outcomes = await Promise.allSettled([
      writer.write([rowOf(t.checkout.id, span('d', 20))]),
      writer.write([rowOf(t.checkout.id, span('e', 22)), refused]),
      writer.write([rowOf(t.checkout.id, span('f', 23))]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The driver's error itself (COPY, PostgreSQL), or wrapped by drizzle (the unnest insert).
    const reason = (outcomes[1] as PromiseRejectedResult).reason as { code?: string; cause?: { code?: string } };
    expect(reason.code ?? reason.cause?.code).toBe('22003'); // numeric value out of range
    // One joined statement, then each export alone.
    expect(writer.statements).toBe(4);
    const ids = await spanIds();
    expect(ids).toContain((20).toString(16).padStart(16, '0'));
    expect(ids).toContain((23).toString(16).padStart(16, '0'));
    expect(ids).not.toContain((22).toString(16).padStart(16, '0'));
  });

  it('joins exports up to the row limit of a statement, never splitting one', async () => {
    const repository = new TracesRepository(t.db);
    const writer = new SpanWriter((rows) => repository.insertSpans(rows), { maxRows: 4, maxInFlight: 1 });
    const rows = (trace: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => rowOf(t.checkout.id, span(trace, from + i)));
    await Promise.all([
      writer.write(rows('1', 40, 2)),
      writer.write(rows('2', 42, 2)),
      writer.write(rows('3', 44, 6)), // more than the limit alone: written whole, by itself
      writer.write(rows('4', 50, 1)),
    ]);
    expect(writer.statements).toBe(3); // [2 + 2], [6], [1]
    expect((await spanIds()).filter((id) => Number.parseInt(id, 16) >= 40)).toHaveLength(11);
  });
});
