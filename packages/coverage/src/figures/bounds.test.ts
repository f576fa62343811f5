import { describe, expect, it } from 'vitest';
import { emptyCounters } from '../model/coverage.ts';
import { type Bounded, coveredAtMost, rangedKinds, summedBounds } from './bounds.ts';

const item = (branch: [number, number], most?: number): Bounded => ({
  counters: { ...emptyCounters(), branch: { covered: branch[0], missed: branch[1] }, line: { covered: 1, missed: 0 } },
  ...(most !== undefined && { bounds: { branch: { coveredAtMost: most } } }),
});

describe('bounds of merged counters', () => {
  it('reads the upper bound of a range, the covered count of an exact counter, null for an absent one', () => {
    expect(coveredAtMost(item([2, 4], 4), 'branch')).toBe(4);
    expect(coveredAtMost(item([2, 4]), 'branch')).toBe(2);
    expect(coveredAtMost(item([2, 4]), 'instruction')).toBeNull();
    expect(rangedKinds(item([2, 4], 4))).toEqual(['branch']);
    expect(rangedKinds(item([2, 4], 2))).toEqual([]);
  });

  it('sums the parts’ upper bounds, capped at the total, and gives none when every part is exact', () => {
    const parts = [item([2, 4], 5), item([1, 1])];
    const total = { ...emptyCounters(), branch: { covered: 3, missed: 5 }, line: { covered: 2, missed: 0 } };
    expect(summedBounds(parts, total)).toEqual({ branch: { coveredAtMost: 6 } });
    expect(summedBounds([item([2, 0], 9), item([1, 1])], { ...total, branch: { covered: 3, missed: 1 } })).toEqual({
      branch: { coveredAtMost: 4 },
    });
    expect(summedBounds([item([2, 4]), item([1, 1])], total)).toBeUndefined();
  });
});
