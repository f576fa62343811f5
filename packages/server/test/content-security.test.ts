import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/build-test-app.ts';

/** Directive name → its sources, from a Content-Security-Policy header. */
function directives(header: string | string[] | number | undefined): Record<string, string[]> {
  expect(typeof header).toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** Issue 32, finding 8: a strict Content-Security-Policy on the app's pages and the API's answers. */
describe('Content-Security-Policy', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'sx-csp-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">spa</div>');
    t = await buildTestApp({ webDist: dist });
  }, 60_000);
  afterAll(async () => t?.close());

  it('puts the app under its own scripts only, unframeable, with Trusted Types and the trace viewer', async () => {
    for (const url of ['/', '/login', '/dashboard/observingRiskyItems']) {
      const res = await t.app.inject({ url, headers: { host: 'sextant.example:8080' } });
      expect(res.statusCode).toBe(200);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['frame-ancestors']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['require-trusted-types-for']).toEqual(["'script'"]);
      expect(csp['trusted-types']).toEqual(['default']);
      expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp['frame-src']).toContain('http://sextant.example:5173');
      expect(csp['connect-src']).toContain('wss://sextant.example:8080');
      for (const sources of Object.values(csp)) {
        expect(sources).not.toContain("'unsafe-eval'");
        expect(sources).not.toContain('*');
        const origins = sources.filter((s) => /^(https?|wss?):/.test(s));
        expect(origins.every((s) => new URL(s).hostname === 'sextant.example')).toBe(true);
      }
    }
  });

  it('gives API answers, errors included, a policy that loads nothing', async () => {
    for (const url of ['/api/me', '/api/nothing-here', '/api/about']) {
      const res = await t.app.inject({ url });
      expect(directives(res.headers['content-security-policy'])).toMatchObject({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
    }
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'x', password: 'y' } });
    expect(directives(login.headers['content-security-policy'])['default-src']).toEqual(["'none'"]);
  });

  it('never repeats a Host header that could add sources', async () => {
    const res = await t.app.inject({ url: '/', headers: { host: "evil.example; script-src 'unsafe-inline'" } });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(JSON.stringify(csp)).not.toContain('evil');
  });
});
