import { describe, expect, it } from 'vitest';
import type { SideInterfaceRow } from './regression-repository.ts';
import { compareInterface } from './regression-service.ts';

const side = (sample: number[], errors = 0): SideInterfaceRow => {
  const sorted = [...sample].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))] ?? 0;
  return {
    interface: 'GET /x',
    calls: String(sample.length),
    errors: String(errors),
    p95_ns: p95 * 1e6,
    sample_ms: sample,
  };
};
const range = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + (i % 10));

describe('comparing one interface across a regression run', () => {
  it('calls a large, significant shift slower', () => {
    expect(compareInterface('GET /x', side(range(40, 50)), side(range(40, 400))).verdicts).toEqual(['slower']);
  });

  it('does not call a significant but tiny shift slower (p95 up by less than 10 %)', () => {
    const r = compareInterface('GET /x', side(range(200, 100)), side(range(200, 102)));
    expect(r.pSlower).toBeLessThan(0.05);
    expect(r.verdicts).toEqual([]);
  });

  it('names added, removed and failing more', () => {
    expect(compareInterface('GET /x', undefined, side([1])).verdicts).toEqual(['added']);
    expect(compareInterface('GET /x', side([1]), undefined).verdicts).toEqual(['removed']);
    expect(compareInterface('GET /x', side(range(50, 10), 1), side(range(50, 10), 20)).verdicts).toEqual([
      'failing-more',
    ]);
  });
});
