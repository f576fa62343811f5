import type { TraceSpan } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { buildTraceModel, visibleRows } from './waterfall-model.ts';

const T0 = 1_700_000_000_000_000_000n;
function span(id: string, parent: string | null, startMs: number, ms: number): TraceSpan {
  return {
    spanId: id,
    parentSpanId: parent,
    name: id,
    kind: 'internal',
    service: parent ? 'db' : 'web',
    appVersion: null,
    startNs: (T0 + BigInt(startMs) * 1_000_000n).toString(),
    durationNs: (BigInt(ms) * 1_000_000n).toString(),
    status: 'unset',
    statusMessage: '',
    interface: null,
    exception: null,
    code: null,
    testCase: null,
    attributes: {},
    resource: {},
    events: [],
    links: [],
  };
}

describe('the waterfall model', () => {
  const spans = [
    span('b', 'root', 10, 30),
    span('root', null, 0, 100),
    span('a', 'root', 5, 80),
    span('a1', 'a', 6, 10),
    span('a2', 'a', 20, 60),
    span('lost', 'missing-parent', 50, 5),
  ];

  it('orders depth first by start, places times from the trace start, and shows orphans as roots', () => {
    const model = buildTraceModel(spans);
    expect(model.order).toEqual(['root', 'a', 'a1', 'a2', 'b', 'lost']);
    expect(model.spans.get('a2')).toMatchObject({ depth: 2, startMs: 20, durationMs: 60 });
    expect(model.spans.get('lost')?.depth).toBe(0);
    expect(model.totalMs).toBe(100);
    expect(model.services).toEqual(['db', 'web']);
  });

  it('follows the last-finishing child for the critical path', () => {
    const model = buildTraceModel(spans);
    const critical = model.order.filter((id) => model.spans.get(id)?.onCriticalPath);
    expect(critical).toEqual(['root', 'a', 'a2', 'lost']);
  });

  it('hides the descendants of a collapsed span only', () => {
    const model = buildTraceModel(spans);
    expect(visibleRows(model, new Set(['a'])).map((r) => r.span.spanId)).toEqual(['root', 'a', 'b', 'lost']);
    expect(visibleRows(model, new Set(['root'])).map((r) => r.span.spanId)).toEqual(['root', 'lost']);
  });

  it('builds a 10,000-span chain without overflowing the stack', () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => span(`s${i}`, i === 0 ? null : `s${i - 1}`, i, 10_000 - i));
    const model = buildTraceModel(chain);
    expect(model.order).toHaveLength(10_000);
    expect(model.spans.get('s9999')?.depth).toBe(9999);
  });
});
