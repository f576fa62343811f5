import { describe, expect, it } from 'vitest';
import { roleOf } from '../../src/config.ts';

describe('the --role option', () => {
  it('reads --role, --role=, then SEXTANT_ROLE, and defaults to all', () => {
    expect(roleOf([], {})).toBe('all');
    expect(roleOf([], { SEXTANT_ROLE: '' })).toBe('all');
    expect(roleOf([], { SEXTANT_ROLE: 'worker' })).toBe('worker');
    expect(roleOf(['--role', 'web'], { SEXTANT_ROLE: 'worker' })).toBe('web');
    expect(roleOf(['--role=worker'], {})).toBe('worker');
  });

  it('refuses anything else, naming the roles', () => {
    expect(() => roleOf(['--role', 'api'], {})).toThrow('role: expected one of web, worker, all, got "api"');
    expect(() => roleOf(['--role'], {})).toThrow('got ""');
    expect(() => roleOf([], { SEXTANT_ROLE: 'Web' })).toThrow('got "Web"');
  });
});
