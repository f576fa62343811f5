import { describe, expect, it } from 'vitest';
import { copyLine, copyText, startTimeOf } from '../../src/modules/traces/span-copy.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';
import { storedSpans } from './support.ts';

/**
 * Texts that a careless COPY text encoding (PostgreSQL) or parameter encoding (PGlite) would alter:
 * the format's separators and escapes, what looks like its null and end markers, NUL, quotes and
 * JSON escapes, and characters outside ASCII and the BMP.
 */
const HOSTILE: Record<string, string> = {
  'tab\tkey': 'a\tb',
  newline: 'line 1\nline 2\r\nline 3\r',
  backslash: 'C:\\temp\\new\\N\\t\\\\',
  'copy.null': '\\N',
  'copy.end': '\\.',
  nul: 'before\u0000after',
  quotes: `"double" 'single' \`back\` {"json":"\\u0041"}`,
  unicode: '数据 🚀 مرحبا e\u0301 \u2028\u2029 \u00a0',
  control: '\u0001\u0008\u000b\u000c\u001b\u007f',
  '=': 'key is only an equals sign',
  equals: 'a=b=c',
};

/** What the intake keeps of a text: NUL, which PostgreSQL text and jsonb refuse, becomes U+FFFD. */
const kept = (text: string) => text.replaceAll('\u0000', '\uFFFD');

const stringAttrs = (attrs: Record<string, string>) =>
  Object.entries(attrs).map(([key, value]) => ({ key, value: { stringValue: value } }));

const NOW_NS = BigInt(Date.now()) * 1_000_000n;

function hostileExport(traceHex: string): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: stringAttrs({ 'service.name': 'svc\twith\ttabs', 'service.version': '1.0\\beta' }) },
        scopeSpans: [
          {
            spans: [
              {
                traceId: traceHex.repeat(32),
                spanId: traceHex.repeat(16),
                name: 'GET /a\tb\nc\\d',
                kind: 2,
                startTimeUnixNano: (NOW_NS - 5_000_000n).toString(),
                endTimeUnixNano: NOW_NS.toString(),
                attributes: [
                  ...stringAttrs(HOSTILE),
                  ...stringAttrs({
                    'http.request.method': 'GET',
                    'http.route': '/tab\there',
                    'test.case.id': 'CASE\t\\1',
                  }),
                  { key: 'list', value: { arrayValue: { values: [{ stringValue: '\t' }, { stringValue: '\\' }] } } },
                  { key: 'status', value: { intValue: 200 } },
                  { key: 'big', value: { intValue: '9007199254740993' } },
                  { key: 'ok', value: { boolValue: true } },
                  { key: 'ratio', value: { doubleValue: 0.5 } },
                ],
                status: { code: 2, message: 'failed:\n\t\\N' },
                events: [
                  {
                    name: 'exception',
                    timeUnixNano: NOW_NS.toString(),
                    attributes: stringAttrs({
                      'exception.type': 'Boom\\Error',
                      'exception.message': 'multi\nline',
                      'exception.stacktrace': 'Boom\n\tat a(A.java:1)\r\n\tat b(B.java:2)',
                    }),
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
}

describe('span texts with COPY and escaping hazards round-trip exactly through intake and search (issue 36)', () => {
  const t = useIntakeApp();
  const send = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
      payload: body,
    });

  it('stores every hostile text as sent (NUL as U+FFFD), and a re-sent export once', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await send(hostileExport('a'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({});
    }
    const [span, ...more] = await storedSpans(t.db, t.checkout.id);
    expect(more).toEqual([]);
    expect(span).toMatchObject({
      name: 'GET /a\tb\nc\\d',
      service: 'svc\twith\ttabs',
      app_version: '1.0\\beta',
      interface: 'GET /tab\there',
      test_case: 'CASE\t\\1',
      exception_type: 'Boom\\Error',
      exception_message: 'multi\nline',
      exception_stack: 'Boom\n\tat a(A.java:1)\r\n\tat b(B.java:2)',
      status_code: 2,
    });
    const expected = Object.fromEntries(Object.entries(HOSTILE).map(([k, v]) => [k, kept(v)]));
    expect(span?.attributes).toMatchObject({ ...expected, list: ['\t', '\\'] });
  });

  it('finds the span by each hostile attribute value, and shows it in the trace detail as stored', async () => {
    // The search refuses control characters in its query (400), and splits key=value at the first '='.
    const searchable = Object.entries(HOSTILE).filter(([k, v]) => !k.includes('=') && !/\p{Cc}/u.test(k + kept(v)));
    expect(searchable.map(([k]) => k)).toEqual([
      'backslash',
      'copy.null',
      'copy.end',
      'nul',
      'quotes',
      'unicode',
      'equals',
    ]);
    for (const [key, value] of searchable) {
      const attribute = encodeURIComponent(`${key}=${kept(value)}`);
      const res = await t.call('GET', `/api/traces?appId=${t.checkout.id}&attribute=${attribute}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res.json().data.items.map((i: { traceId: string }) => i.traceId),
        key,
      ).toEqual(['a'.repeat(32)]);
    }
    // Numbers and booleans are found by their text, as written; a near miss finds nothing.
    const found = async (attribute: string) => {
      const res = await t.call('GET', `/api/traces?appId=${t.checkout.id}&attribute=${encodeURIComponent(attribute)}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.items.length;
    };
    for (const hit of ['status=200', 'big=9007199254740993', 'ok=true', 'ratio=0.5', 'list=["\\t", "\\\\"]'])
      expect(await found(hit), hit).toBe(1);
    for (const miss of ['status=2000', 'status="200"', 'big=9007199254740992', 'ok=false', 'ratio=0.50', 'equals=a=b'])
      expect(await found(miss), miss).toBe(0);
    const detail = await t.call('GET', `/api/traces/${'a'.repeat(32)}?appId=${t.checkout.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const [span] = detail.json().data.spans;
    expect(span.statusMessage).toBe('failed:\n\t\\N');
    expect(span.attributes.quotes).toBe(HOSTILE.quotes);
    expect(span.resource['service.name']).toBe('svc\twith\ttabs');
  });
});

describe('the COPY text encoding', () => {
  it('escapes exactly the backslash, tab, newline and carriage return', () => {
    expect(copyText('plain ✓ "q"')).toBe('plain ✓ "q"');
    expect(copyText('a\\b\tc\nd\re\\N')).toBe('a\\\\b\\tc\\nd\\re\\\\N');
  });

  it('writes the start with microseconds, truncated as the timestamptz column keeps it', () => {
    expect(startTimeOf(1_000n)).toBe('1970-01-01T00:00:00.000001Z');
    expect(startTimeOf(1_764_000_000_123_456_789n)).toBe('2025-11-24T16:00:00.123456Z');
  });

  it('writes nulls as \\N and one line a row', () => {
    const line = copyLine({
      appId: '00000000-0000-4000-8000-000000000001',
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      parentSpanId: null,
      name: 'n\n',
      kind: 2,
      service: 's',
      appVersion: null,
      startNs: 1_000n,
      durationNs: 5n,
      statusCode: 0,
      statusMessage: '',
      interface: null,
      exceptionType: null,
      exceptionMessage: null,
      exceptionStack: null,
      codeFunction: null,
      codeNamespace: null,
      codeFile: null,
      codeLine: 7,
      testCase: null,
      attributes: '{}',
      resource: '{}',
      events: '[]',
      links: '[]',
    });
    expect(line.split('\t')).toHaveLength(26);
    expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
    expect(line).toContain('\t\\N\tn\\n\t2\ts\t\\N\t1970-01-01T00:00:00.000001Z\t1000\t5\t0\t\t');
  });
});
