import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/build-test-app.ts';

describe('web app serving', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let missing: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'sx-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root">spa</div>');
    writeFileSync(join(dist, 'app.js'), 'console.log(1)');
    t = await buildTestApp({ webDist: dist });
    missing = await buildTestApp({ webDist: join(dist, 'nope') });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await missing?.close();
  });

  it('serves files, falls back to index.html for screen paths, and keeps /api 404s in the envelope', async () => {
    expect((await t.app.inject({ url: '/app.js' })).body).toBe('console.log(1)');
    const screen = await t.app.inject({ url: '/dashboard/observingRiskyItems' });
    expect(screen.body).toContain('spa');
    expect(screen.headers['x-content-type-options']).toBe('nosniff');
    expect((await t.app.inject({ url: '/api/unknown' })).json().code).toBe(404);
  });

  it('answers 404, not the app page, for a chunk an older build had', async () => {
    const res = await t.app.inject({ url: '/assets/LoginPage-old.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('spa');
  });

  it('tells the user to build when the dist folder is missing', async () => {
    const res = await missing.app.inject({ url: '/login' });
    expect(res.body).toContain('npm run build');
  });
});

describe('OpenAPI document', () => {
  it('lists every API route with its required permission', async () => {
    const t = await buildTestApp();
    try {
      const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
      expect(doc.paths['/api/login'].post.description).toBe('Permission: public.');
      expect(doc.paths['/api/users'].post.description).toBe('Permission: create User.');
      expect(doc.paths['/api/me'].get.description).toBe('Permission: any signed-in user.');
    } finally {
      await t.close();
    }
  }, 180_000);
});
