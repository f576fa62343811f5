import { PATHS } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { buildTestApp, freshDatabase, testAppOptions } from '../support/build-test-app.ts';

const TOKEN = 'scrape-token-of-the-test-0123456789';

// Issue 41: Prometheus metrics, served only to a scraper holding the configured token.
describe('/metrics', () => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
    app = await buildApp(testAppOptions({ db: database.db, config: { metricsToken: TOKEN } }));
    await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const scrape = async () => {
    const res = await app.inject({ url: PATHS.metrics, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);

  it('refuses a scrape with a wrong or missing token', async () => {
    expect((await app.inject({ url: PATHS.metrics })).statusCode).toBe(401);
    const wrong = await app.inject({ url: PATHS.metrics, headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
  });

  it('times API requests by route pattern and status, and reports the report queue', async () => {
    await app.inject({ url: PATHS.me });
    await app.inject({ url: PATHS.me });
    const text = await scrape();
    expect(text).toMatch(
      /^sextant_http_request_duration_seconds_count\{method="GET",route="\/api\/me",status="401"\} 2$/m,
    );
    expect(gauge(text, 'sextant_report_queue_depth')).toBe(0);
    expect(text).toMatch(/^sextant_process_resident_memory_bytes \d+/m);
  });

  it('counts open message sockets', async () => {
    const { port } = app.server.address() as { port: number };
    const socket = new WebSocket(`ws://127.0.0.1:${port}${PATHS.ws}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    expect(gauge(await scrape(), 'sextant_stomp_connections')).toBe(1);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
    // the server sees the close after the client: scrape until it has
    let open = 1;
    for (let i = 0; i < 50 && open !== 0; i++) {
      open = gauge(await scrape(), 'sextant_stomp_connections');
      if (open !== 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(open).toBe(0);
    expect(gauge(await scrape(), 'sextant_stomp_connections_total')).toBe(1);
  });
});

describe('/metrics without a token configured', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
  }, 120_000);
  afterAll(async () => t?.close());

  it('answers 404: nothing about the process is exposed by default', async () => {
    const res = await t.app.inject({ url: PATHS.metrics, headers: { authorization: 'Bearer anything-at-all-here' } });
    expect(res.statusCode).toBe(404);
  });
});
