import { describe, expect, it } from 'vitest';
import { lineAfterHunks } from './carry-forward.ts';

describe('lineAfterHunks', () => {
  // base 1..10; lines 3-4 replaced by three lines; two lines inserted after line 7; line 9 removed.
  const hunks = [
    { oldStart: 3, oldCount: 2, newStart: 3, newCount: 3 },
    { oldStart: 7, oldCount: 0, newStart: 9, newCount: 2 },
    { oldStart: 9, oldCount: 1, newStart: 11, newCount: 0 },
  ];

  it('keeps lines above the first hunk where they are', () => {
    expect(lineAfterHunks(1, hunks)).toBe(1);
    expect(lineAfterHunks(2, hunks)).toBe(2);
  });

  it('drops the lines a hunk rewrote or removed', () => {
    expect(lineAfterHunks(3, hunks)).toBeNull();
    expect(lineAfterHunks(4, hunks)).toBeNull();
    expect(lineAfterHunks(9, hunks)).toBeNull();
  });

  it('shifts the lines below a hunk by what it added and removed', () => {
    expect(lineAfterHunks(5, hunks)).toBe(6);
    expect(lineAfterHunks(7, hunks)).toBe(8);
    expect(lineAfterHunks(8, hunks)).toBe(11);
    expect(lineAfterHunks(10, hunks)).toBe(12);
  });
});
