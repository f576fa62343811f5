import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS, type Edition, type Settings, type UserData } from '@sextant/api';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { AccessTokens } from '../src/modules/auth/tokens.ts';
import { type Access, type Authenticator, describeAccess, registerAccess } from '../src/plugins/access.ts';
import { registerErrorHandler } from '../src/plugins/errors.ts';

// The access plugin on its own: every decision of plugins/access.ts (who gets which answer on a
// public, signed-in or guarded route), with real signed tokens. The accounts and ended sessions the
// auth module would read from the database are held in maps here, through the Authenticator the
// plugin is handed (app.ts hands it the auth module's). The whole app's routes are checked against
// the independent table in routes-access.test.ts. scripts/mutation.mjs runs this file against access.ts.
// The app is built by the first test that needs it, not in beforeAll: a mutant that breaks
// registration must fail a test (Stryker counts a failed hook, every test skipped, as survived).
// Equivalent mutants, left alive: `if (sessionId && …sessionEnded…)` → `if (true && …)` asks the
// store whether the null session ended, which it never has; and a web or docs route's config set
// to `{}` or `access: ''` instead of `access: 'public'`: the check lets a route without a rule pass.

const tokens = new AccessTokens('access-plugin-test-secret', 600);
const users = new Map<string, { userData: UserData; settings: Settings }>();
const ended = new Set<string>();
const authenticator: Authenticator = {
  verifySession: (token) => tokens.verifySession(token),
  sessionEnded: async (sessionId) => ended.has(sessionId),
  load: async (userId) => users.get(userId),
};

function account(rights: Pick<UserData, 'ability' | 'resourceNums'>, edition: Edition = 'advanced'): string {
  const userid = randomUUID();
  const userData: UserData = {
    userid,
    usertypes: [],
    role: 'tester',
    performanceRiskRules: { trace_consuming_time_serious_threshold: 3, trace_consuming_time_warn_threshold: 1 },
    ...rights,
  };
  users.set(userid, { userData, settings: { ...DEFAULT_SETTINGS, licenseVersion: edition } });
  return userid;
}

let built: Promise<FastifyInstance> | undefined;
const ready = () => {
  built ??= build();
  return built;
};
const echo = (access: Access, description?: string) => ({
  config: { access },
  schema: description ? { description } : {},
  handler: async (req: { principal?: { userData: UserData }; sessionId?: string | null }) => ({
    user: req.principal?.userData.userid ?? null,
    session: req.sessionId ?? null,
  }),
});

async function build(): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandler(app);
  registerAccess(app, authenticator);
  app.get('/health', async () => ({ ok: true }));
  app.get('/api/docs/json', async () => ({ docs: true }));
  app.get('/api/open', echo('public'));
  app.get('/api/me', echo('signed-in', 'Who am I.'));
  app.route({ method: ['POST', 'PUT'], url: '/api/reports', ...echo({ action: 'update', resource: 'Report' }) });
  app.get('/api/traces', echo({ action: 'read', resource: 'Trace' }));
  await app.ready();
  return app;
}
afterAll(async () => (await built)?.close());

const call = async (method: 'GET' | 'POST' | 'PUT', url: string, authorization?: string) =>
  (await ready()).inject({ method, url, headers: authorization === undefined ? {} : { authorization } });
const bearer = async (userId: string, sessionId = randomUUID()) => `Bearer ${await tokens.sign(userId, sessionId)}`;
const refusal = (code: number, error: string, message: string) => ({ code, message, data: { error } });

describe('the access table and the docs', () => {
  it('describes each kind of rule in words', () => {
    expect(describeAccess('public')).toBe('Permission: public.');
    expect(describeAccess('signed-in')).toBe('Permission: any signed-in user.');
    expect(describeAccess({ action: 'delete', resource: 'User' })).toBe('Permission: delete User.');
  });

  it('lists every /api route outside the docs with its rule, one row per method', async () => {
    const rows = (await ready()).accessTable.filter((r) => r.method !== 'HEAD');
    expect(rows).toEqual([
      { method: 'GET', url: '/api/open', access: 'public' },
      { method: 'GET', url: '/api/me', access: 'signed-in' },
      { method: 'POST', url: '/api/reports', access: { action: 'update', resource: 'Report' } },
      { method: 'PUT', url: '/api/reports', access: { action: 'update', resource: 'Report' } },
      { method: 'GET', url: '/api/traces', access: { action: 'read', resource: 'Trace' } },
    ]);
  });

  it('adds the rule to the route’s description', async () => {
    const described: Record<string, string | undefined> = {};
    const probe = Fastify();
    registerAccess(probe, authenticator);
    probe.addHook('onRoute', (route) => {
      described[route.url] = route.schema?.description;
    });
    probe.get('/api/me', echo('signed-in', 'Who am I.'));
    probe.get('/api/open', echo('public'));
    probe.get('/api/bare', { config: { access: 'public' } }, async () => ({}));
    await probe.ready();
    await probe.close();
    expect(described).toEqual({
      '/api/me': 'Who am I. Permission: any signed-in user.',
      '/api/open': 'Permission: public.',
      '/api/bare': 'Permission: public.',
    });
  });

  it('refuses to start with an /api route that declares no rule', async () => {
    const probe = Fastify();
    registerAccess(probe, authenticator);
    expect(() => probe.get('/api/forgotten', async () => ({}))).toThrow(
      'Route GET /api/forgotten declares no access rule',
    );
    await probe.close();
  });
});

describe('public routes', () => {
  it('serve the web app, the API docs and public /api routes without a token', async () => {
    expect((await call('GET', '/health')).json()).toEqual({ ok: true });
    expect((await call('GET', '/api/docs/json')).json()).toEqual({ docs: true });
    expect((await call('GET', '/api/open', 'Bearer not-a-token')).json()).toEqual({ user: null, session: null });
  });
});

describe('signed-in routes', () => {
  const reader = account({ ability: [], resourceNums: {} });

  it('answer 401 without a well-formed bearer token', async () => {
    const token = await tokens.sign(reader, randomUUID());
    for (const header of [undefined, '', 'Bearer ', `Basic ${token}`, `xBearer ${token}`, `Bearer ${token} x`]) {
      const res = await call('GET', '/api/me', header);
      expect(res.statusCode, String(header)).toBe(401);
      expect(res.json()).toEqual(refusal(401, 'unauthorized', 'Please sign in.'));
    }
  });

  it('answer 401 for a token not signed by the server', async () => {
    const forged = await new AccessTokens('another-secret', 600).sign(reader, randomUUID());
    expect((await call('GET', '/api/me', `Bearer ${forged}`)).json()).toEqual(
      refusal(401, 'unauthorized', 'Please sign in.'),
    );
  });

  it('let any signed-in user in, with the caller and the session on the request', async () => {
    const session = randomUUID();
    const res = await call('GET', '/api/me', await bearer(reader, session));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: reader, session });
  });

  it('refuse the tokens of an ended session at once', async () => {
    const session = randomUUID();
    const header = await bearer(reader, session);
    expect((await call('GET', '/api/me', header)).statusCode).toBe(200);
    ended.add(session);
    expect((await call('GET', '/api/me', header)).json()).toEqual(
      refusal(401, 'unauthorized', 'This session has ended; please sign in.'),
    );
  });

  it('refuse a valid token whose account is gone', async () => {
    const header = await bearer(randomUUID());
    expect((await call('GET', '/api/me', header)).json()).toEqual(refusal(401, 'unauthorized', 'Please sign in.'));
  });
});

describe('guarded routes', () => {
  const reportEditor = { ability: [{ action: 'update', resource: 'Report' }], resourceNums: { Report: 1 } } as const;

  it('let a caller holding the ability and the resource in, for each method of the route', async () => {
    const editor = account({ ability: [...reportEditor.ability], resourceNums: reportEditor.resourceNums });
    for (const method of ['POST', 'PUT'] as const) {
      const res = await call(method, '/api/reports', await bearer(editor));
      expect(res.statusCode, method).toBe(200);
      expect(res.json().user).toBe(editor);
    }
  });

  it('refuse 403 forbidden without the ability or without the resource', async () => {
    const readerOnly = account({ ability: [{ action: 'read', resource: 'Report' }], resourceNums: { Report: 1 } });
    const closed = account({ ability: [...reportEditor.ability], resourceNums: { Report: 0 } });
    for (const who of [readerOnly, closed]) {
      expect((await call('POST', '/api/reports', await bearer(who))).json()).toEqual(
        refusal(403, 'forbidden', 'Your role may not update Report.'),
      );
    }
  });

  it('refuse 403 edition-forbidden for a resource the edition hides, whatever the role', async () => {
    const admin = { ability: [{ action: 'manage', resource: 'all' }], resourceNums: { all: 1 } } as const;
    const basic = account({ ability: [...admin.ability], resourceNums: admin.resourceNums }, 'basic');
    expect((await call('GET', '/api/traces', await bearer(basic))).json()).toEqual(
      refusal(403, 'edition-forbidden', 'The basic edition does not include Trace.'),
    );
    const advanced = account({ ability: [...admin.ability], resourceNums: admin.resourceNums }, 'advanced');
    expect((await call('GET', '/api/traces', await bearer(advanced))).statusCode).toBe(200);
  });

  it('answer 401, not 403, to a caller without a token', async () => {
    expect((await call('POST', '/api/reports')).statusCode).toBe(401);
  });
});

describe('app.principalOf (for routes taking other credentials too)', () => {
  it('gives the signed-in user behind a token, and refuses an invalid one with 401', async () => {
    const who = account({ ability: [], resourceNums: {} }, 'lite');
    const token = await tokens.sign(who, randomUUID());
    // An app of its own: the shared one is built by whichever test runs first, and Stryker would
    // then count only that test as covering the decorator.
    const app = await build();
    try {
      const principal = await app.principalOf(token);
      expect(principal.userData.userid).toBe(who);
      expect(principal.settings.licenseVersion).toBe('lite');
      await expect(app.principalOf('garbage')).rejects.toMatchObject({ status: 401, error: 'unauthorized' });
    } finally {
      await app.close();
    }
  });
});
