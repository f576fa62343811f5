import { describe, expect, it } from 'vitest';
import { durationTone, readTraceSearch, writeTraceSearch } from './url.ts';

describe('trace search in the URL', () => {
  it('reads what it wrote and drops what is not a filter', () => {
    const search = {
      appId: '0f6f3c1e-7a43-4f4e-9a59-1d2c3b4a5e6f',
      status: 'error' as const,
      minDurationMs: 0,
      maxDurationMs: 2500,
      attribute: 'http.status_code=500',
      testCase: 'CASE-7',
    };
    expect(readTraceSearch(writeTraceSearch(search))).toEqual(search);
    expect(readTraceSearch(new URLSearchParams('status=maybe&minDurationMs=-1&maxDurationMs=x&service='))).toEqual({});
  });

  it('colours durations by the stored thresholds in seconds (point 9)', () => {
    expect(durationTone(999, 1, 3)).toBe('success');
    expect(durationTone(1000, 1, 3)).toBe('warning');
    expect(durationTone(2999, 1, 3)).toBe('warning');
    expect(durationTone(3000, 1, 3)).toBe('danger');
  });
});
