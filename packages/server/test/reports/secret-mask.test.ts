import { describe, expect, it } from 'vitest';
import { maskSecrets, serverSecrets } from '../../src/modules/reports/pipeline/secret-mask.ts';

describe('maskSecrets', () => {
  it('masks every occurrence of each secret', () => {
    expect(maskSecrets('key=abcdef123 again abcdef123.', ['abcdef123'])).toBe('key=*** again ***.');
  });

  it('leaves text without secrets as it is', () => {
    expect(maskSecrets('compiling\nerror: x', ['abcdef123'])).toBe('compiling\nerror: x');
    expect(maskSecrets('compiling', [])).toBe('compiling');
  });

  it('merges overlapping secrets into one mask, whichever order they are given in', () => {
    // Masking "abcdef" first and then looking for "defghi" would leave "ghi" visible.
    expect(maskSecrets('x abcdefghi y', ['abcdef', 'defghi'])).toBe('x *** y');
    expect(maskSecrets('x abcdefghi y', ['defghi', 'abcdef'])).toBe('x *** y');
  });

  it('masks a secret inside a longer one once, and secrets touching each other as one', () => {
    expect(maskSecrets('[hunter2-long-password]', ['hunter2-long-password', 'long-pa'])).toBe('[***]');
    expect(maskSecrets('aaaaaabbbbbb', ['aaaaaa', 'bbbbbb'])).toBe('***');
  });

  it('masks repeated overlapping occurrences of one secret', () => {
    expect(maskSecrets('ababab-ababab', ['ababab'])).toBe('***-***');
    expect(maskSecrets('abababab', ['ababab'])).toBe('***');
  });
});

describe('serverSecrets', () => {
  it('takes the given values, URL passwords and secret-looking variables, not ordinary ones', () => {
    const secrets = serverSecrets(['the-jwt-signing-key', undefined], {
      DATABASE_URL: 'postgres://sextant:p%40ss-word@db.internal:5432/sextant',
      REDIS_URL: 'redis://:redis-pass@cache:6379',
      SEXTANT_ADMIN_PASSWORD: 'admin-password-1',
      NPM_TOKEN: 'npm_abcdefgh',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
      SHORT_TOKEN: 'abc',
      PATH: '/usr/bin:/bin',
      HOME: '/root',
    });
    expect(new Set(secrets)).toEqual(
      new Set([
        'the-jwt-signing-key',
        'postgres://sextant:p%40ss-word@db.internal:5432/sextant',
        'p%40ss-word',
        'p@ss-word',
        'redis://:redis-pass@cache:6379',
        'redis-pass',
        'admin-password-1',
        'npm_abcdefgh',
        'aws-secret-value',
      ]),
    );
  });
});
