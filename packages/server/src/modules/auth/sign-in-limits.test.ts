import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, useAdminApp } from '../../../test/support/build-test-app.ts';
import { IP_LIMIT, MAX_DELAY_MS } from './sign-in-limits.ts';

/** Issue 32, finding 7: an attacker's failed sign-ins delay an account, never lock its owner out. */
describe('sign-in limits an attacker cannot turn against the admin', () => {
  const t = useAdminApp();
  afterEach(() => vi.useRealTimers());
  const login = (password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'admin', password }, remoteAddress: ip });

  it('keeps the admin signing in from a known address, and from a new one after the delay', async () => {
    const start = Date.now();
    expect((await login(ADMIN_PASSWORD, '10.40.0.1')).statusCode).toBe(200);
    const attacker = '10.66.0.1';
    const answers: number[] = [];
    for (let i = 0; i < IP_LIMIT + 5; i++) answers.push((await login(`guess-${i}`, attacker)).statusCode);
    // Only the first few are even checked; the rest wait for the account's delay or the address's limit.
    expect(answers.filter((s) => s === 400).length).toBeLessThanOrEqual(IP_LIMIT);
    expect(answers.at(-1)).toBe(429);
    expect((await login(ADMIN_PASSWORD, attacker)).statusCode).toBe(429);
    // The admin's usual address is not held back by the attack on the account.
    expect((await login(ADMIN_PASSWORD, '10.40.0.1')).statusCode).toBe(200);
    // An attack spread over many addresses (that success cleared the count): after five failures
    // each further try from a new address waits a growing delay.
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 8; i++) {
      vi.setSystemTime(start + (i + 1) * 60_000);
      expect((await login(`spread-${i}`, `10.67.0.${i}`)).statusCode).toBe(400);
    }
    const fresh = await login(ADMIN_PASSWORD, '10.41.0.1');
    expect(fresh.statusCode).toBe(429);
    const wait = Number(fresh.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait * 1000).toBeLessThanOrEqual(MAX_DELAY_MS);
    // A delay, not a lock: once it has passed the admin signs in from that new address too.
    vi.setSystemTime(Date.now() + wait * 1000 + 1000);
    expect((await login(ADMIN_PASSWORD, '10.41.0.1')).statusCode).toBe(200);
  });
});
