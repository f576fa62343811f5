import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { errorCodeOf, errorTexts } from './error-texts.ts';

describe('errorCodeOf', () => {
  it('takes the envelope code when the server sent one', () => {
    expect(errorCodeOf(new ApiError(409, 'Name taken', { error: 'conflict', fields: {} }))).toBe('conflict');
    expect(errorCodeOf(new ApiError(401, 'x', { error: 'invalid-credentials' }))).toBe('invalid-credentials');
  });

  it('reads the HTTP status when the answer had no code', () => {
    expect(errorCodeOf(new ApiError(401, 'Your session has ended.'))).toBe('unauthorized');
    expect(errorCodeOf(new ApiError(502, 'bad gateway'))).toBe('internal');
    expect(errorCodeOf(new ApiError(400, 'x', { error: 'no-such-code' }))).toBe('bad-request');
  });

  it('calls anything else unreachable, with a sentence in both languages', () => {
    expect(errorCodeOf(new TypeError('fetch failed'))).toBe('unreachable');
    expect(errorTexts.zh.unreachable).toContain('Sextant');
  });
});
