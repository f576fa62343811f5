import { describe, expect, it } from 'vitest';
import { decodeJsonExport } from '../../src/modules/traces/otlp-json.ts';

const exportWith = (startNs: string, attributes: unknown[]) =>
  Buffer.from(
    `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[{"traceId":"${'a'.repeat(32)}",` +
      `"spanId":"${'b'.repeat(16)}","name":"n","startTimeUnixNano":${startNs},"endTimeUnixNano":"2",` +
      `"attributes":${JSON.stringify(attributes)}}]}]}]}`,
  );

const numbers = [
  { key: 'ratio', value: { doubleValue: 0.25 } },
  { key: 'nan', value: { doubleValue: 'NaN' } },
  { key: 'small', value: { intValue: 12 } },
  { key: 'big', value: { intValue: '9007199254740993' } },
];

describe('OTLP/JSON numbers (issue 36)', () => {
  it.each([
    ['a body without long bare numbers (read by JSON.parse)', '"1764000000123456789"'],
    ['a body with a bare number past 2^53 (read losslessly)', '1764000000123456789'],
  ])('%s keeps doubles, small and big integers and nanosecond times exactly', (_, startNs) => {
    const [resourceSpans] = decodeJsonExport(exportWith(startNs, numbers));
    const [span] = resourceSpans?.spans ?? [];
    expect(span?.startNs).toBe(1_764_000_000_123_456_789n);
    expect(span?.attributes).toEqual({ ratio: 0.25, nan: 'NaN', small: 12, big: '9007199254740993' });
  });
});
