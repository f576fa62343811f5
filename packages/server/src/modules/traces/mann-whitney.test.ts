import { describe, expect, it } from 'vitest';
import { mannWhitneyGreater, normalUpperTail, proportionGreater } from './mann-whitney.ts';

describe('the significance tests of regression runs', () => {
  it('gives the normal tail of known points', () => {
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 6);
    expect(normalUpperTail(1.6448536)).toBeCloseTo(0.05, 5);
    expect(normalUpperTail(-1.959964)).toBeCloseTo(0.975, 5);
  });

  it('computes U and the one-sided p-value as R wilcox.test(exact = FALSE, correct = TRUE) does', () => {
    // R's formula: z = (W - n1·n2/2 - 0.5) / sqrt(n1·n2/12 · ((n+1) - Σ(t³-t)/(n(n-1)))), one tie of two (the 5s):
    // W = 24.5, σ = sqrt(25/12 · (11 - 6/90)) = 4.7726, z = 11.5 / 4.7726 = 2.4096, p = 0.00799.
    const r = mannWhitneyGreater([1, 2, 3, 4, 5], [5, 6, 7, 8, 9]);
    expect(r?.u).toBe(24.5);
    expect(r?.p).toBeCloseTo(0.00799, 4);
  });

  it('finds no evidence when the samples are alike, and nothing without a sample', () => {
    const same = mannWhitneyGreater([1, 2, 3, 4], [1, 2, 3, 4]);
    expect(same?.p).toBeGreaterThan(0.4);
    expect(mannWhitneyGreater([], [1])).toBeNull();
  });

  it('tests error rates with a two-proportion z-test', () => {
    expect(proportionGreater(1, 100, 30, 100)).toBeLessThan(0.001);
    expect(proportionGreater(10, 100, 10, 100)).toBeCloseTo(0.5, 6);
    expect(proportionGreater(0, 0, 1, 1)).toBeNull();
  });
});
