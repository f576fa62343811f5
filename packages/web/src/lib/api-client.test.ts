import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReportSchema } from '@sextant/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type TokenStore } from './api-client.ts';

/** The token tests look at what came back, whatever its shape. */
const anything = { parse: <T>(data: T) => data };

/** A real HTTP server that honours only the newest access token, counting refresh calls. */
function tokenServer() {
  let generation = 1;
  let refreshCalls = 0;
  let refreshWorks = true;
  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk) => {
        text += chunk;
      });
      req.on('end', () => resolve(text));
    });
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.url === '/api/refreshToken') {
      refreshCalls += 1;
      const { refreshToken } = JSON.parse(await body(req)) as { refreshToken: string };
      if (!refreshWorks || refreshToken !== `r${generation}`) return send(401, { code: 401, data: null });
      generation += 1;
      return send(200, { code: 200, data: { accessToken: `a${generation}`, refreshToken: `r${generation}` } });
    }
    if (req.headers.authorization !== `Bearer a${generation}`) return send(401, { code: 401, data: null });
    if (req.url === '/api/created') return send(201, { code: 201, message: 'Created', data: { id: 'new' } });
    if (req.url === '/api/conflict') return send(409, { code: 409, message: 'Taken', data: null });
    return send(200, { code: 200, data: { path: req.url } });
  });
  return {
    server,
    expireAccessToken: () => {
      generation += 1;
      return `r${generation}`;
    },
    refreshCalls: () => refreshCalls,
    breakRefresh: () => {
      refreshWorks = false;
    },
  };
}

function memoryStore(accessToken: string, refreshToken: string): TokenStore & { cleared: boolean } {
  const state = { accessToken: accessToken as string | null, refreshToken: refreshToken as string | null };
  return {
    cleared: false,
    accessToken: () => state.accessToken,
    refreshToken: () => state.refreshToken,
    setTokens(a, r) {
      state.accessToken = a;
      state.refreshToken = r;
    },
    clear() {
      state.accessToken = null;
      state.refreshToken = null;
      this.cleared = true;
    },
  };
}

describe('api client token refresh', () => {
  let fixture: ReturnType<typeof tokenServer>;
  let baseUrl: string;

  beforeEach(async () => {
    fixture = tokenServer();
    await new Promise<void>((resolve) => fixture.server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(fixture.server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => fixture.server.close(() => resolve())));

  it('answers the data of a 201 envelope and throws for a 4xx one', async () => {
    const client = createApiClient({ store: memoryStore('a1', 'r1'), baseUrl, onSessionExpired: () => {} });
    expect(await client.post('/api/created', anything, {})).toEqual({ id: 'new' });
    await expect(client.post('/api/conflict', anything, {})).rejects.toMatchObject({ code: 409, message: 'Taken' });
  });

  it('refuses an answer its schema does not accept (issue 33: every call checks its answer)', async () => {
    const client = createApiClient({ store: memoryStore('a1', 'r1'), baseUrl, onSessionExpired: () => {} });
    await expect(client.post('/api/created', ReportSchema, {})).rejects.toThrow(/name|status/);
  });

  it('refreshes once for three calls that fail at the same time and replays all of them', async () => {
    const refreshToken = fixture.expireAccessToken();
    const store = memoryStore('a1', refreshToken);
    let expired = 0;
    const client = createApiClient({ store, baseUrl, onSessionExpired: () => expired++ });
    const answers = await Promise.all(
      ['/api/one', '/api/two', '/api/three'].map((p) => client.get(p, { parse: (data) => data as { path: string } })),
    );
    expect(answers.map((a) => a.path)).toEqual(['/api/one', '/api/two', '/api/three']);
    expect(fixture.refreshCalls()).toBe(1);
    expect(store.accessToken()).toBe('a3');
    expect(expired).toBe(0);
  });

  it('clears the session and reports expiry when the refresh is refused', async () => {
    fixture.expireAccessToken();
    fixture.breakRefresh();
    const store = memoryStore('a1', 'r1');
    let expired = 0;
    const client = createApiClient({ store, baseUrl, onSessionExpired: () => expired++ });
    const results = await Promise.allSettled([client.get('/api/one', anything), client.get('/api/two', anything)]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(fixture.refreshCalls()).toBe(1);
    expect(store.cleared).toBe(true);
    expect(expired).toBe(1);
  });

  it('does not refresh when the token is still good', async () => {
    const client = createApiClient({ store: memoryStore('a1', 'r1'), baseUrl, onSessionExpired: () => {} });
    await client.get('/api/me', anything);
    expect(fixture.refreshCalls()).toBe(0);
  });
});
