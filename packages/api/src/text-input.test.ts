import { describe, expect, it } from 'vitest';
import { findUnsafeText, unsafeTextReason } from './text-input.ts';

const oneLine = { multiline: false, maxLength: 10 };
const multiLine = { multiline: true, maxLength: 10 };

describe('unsafeTextReason', () => {
  it('accepts ordinary text, surrogate pairs and zero-width characters', () => {
    for (const text of ['', 'café', '😀 ok', 'a\u200bb', '../etc', '%00'])
      expect(unsafeTextReason(text, oneLine)).toBeNull();
  });

  it('refuses NUL, lone surrogates at either end, control characters and over-long text', () => {
    expect(unsafeTextReason('a\u0000', oneLine)).toMatch(/NUL/);
    for (const text of ['\ud800', 'x\ud800y', '\udfff', 'a\udc00', '😀'.slice(0, 1)]) {
      expect(unsafeTextReason(text, oneLine), JSON.stringify(text)).toMatch(/surrogate/);
    }
    expect(unsafeTextReason('\u001b[31m', multiLine)).toMatch(/Control/);
    expect(unsafeTextReason('12345678901', oneLine)).toMatch(/At most 10/);
  });

  it('allows tab and line breaks only in multi-line text', () => {
    expect(unsafeTextReason('a\tb\r\nc', multiLine)).toBeNull();
    expect(unsafeTextReason('a\nb', oneLine)).toMatch(/Control/);
  });
});

describe('findUnsafeText', () => {
  it('names the path of the first refused string, keys included', () => {
    expect(findUnsafeText({ a: [{ b: 'ok' }, { b: 'x\u0000' }] }, oneLine)).toEqual({
      path: 'a.1.b',
      message: 'The NUL character is not allowed.',
    });
    expect(findUnsafeText({ 'k\u0001': 1 }, oneLine)?.path).toBe('k\\u0001');
    expect(findUnsafeText('\u0000', oneLine)?.path).toBe('_');
    expect(findUnsafeText({ n: 1, b: true, z: null, s: 'fine' }, oneLine)).toBeNull();
  });
});
