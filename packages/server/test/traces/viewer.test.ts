import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTraceViewer } from '../../src/modules/traces/viewer-listener.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';

const TRACE = 'ab'.repeat(16);
const nowNs = BigInt(Date.now()) * 1_000_000n;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** The trace viewer's port (point 2): the app hands its session over as a cookie; only trace reads pass. */
describe('the trace viewer listener', () => {
  const t = useIntakeApp();
  let viewer: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'sx-viewer-'));
    writeFileSync(join(dist, 'trace.html'), '<!doctype html><div id="viewer">viewer page</div>');
    viewer = await buildTraceViewer(t.app, { webDist: dist, port: 5173 });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/json' },
      payload: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [str('service.name', 'orders')] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: TRACE,
                    spanId: 'cd'.repeat(8),
                    name: 'GET /orders',
                    kind: 2,
                    startTimeUnixNano: nowNs.toString(),
                    endTimeUnixNano: (nowNs + 5_000_000n).toString(),
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const session = await t.call('POST', '/api/traces/viewer-session', {});
    expect(session.statusCode, session.body).toBe(200);
    const setCookie = String(session.headers['set-cookie']);
    expect(setCookie).toMatch(/^sextant_trace_viewer=[\w.-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    cookie = setCookie.split(';')[0] ?? '';
  });
  afterAll(async () => viewer?.close());

  it('serves the viewer page at /trace/{id}', async () => {
    const res = await viewer.inject({ url: `/trace/${TRACE}?appId=${t.checkout.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('viewer page');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it("answers the trace with the cookie's session, and 401 without it", async () => {
    const url = `/api/traces/${TRACE}?appId=${t.checkout.id}`;
    const res = await viewer.inject({ url, headers: { cookie: `other=1; ${cookie}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.spans.map((s: { name: string }) => s.name)).toEqual(['GET /orders']);
    expect((await viewer.inject({ url })).statusCode).toBe(401);
    expect((await viewer.inject({ url, headers: { cookie: 'sextant_trace_viewer=forged' } })).statusCode).toBe(401);
  });

  it('reaches nothing but trace reads: other calls and other methods are 404', async () => {
    expect((await viewer.inject({ url: '/api/users', headers: { cookie } })).statusCode).toBe(404);
    expect((await viewer.inject({ url: '/api/traces/viewer-session', headers: { cookie } })).statusCode).toBe(404);
    const post = await viewer.inject({ method: 'POST', url: '/api/settings', headers: { cookie }, payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('does not take the cookie as a session on the main port', async () => {
    const res = await t.app.inject({ url: `/api/traces/${TRACE}?appId=${t.checkout.id}`, headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('a reader without trace rights gets no cookie', async () => {
    const res = await t.call('POST', '/api/traces/viewer-session', {}, {});
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
