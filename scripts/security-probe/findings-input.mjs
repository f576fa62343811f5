// Findings 6 (500s on bad input), 8 (CSP), 9 (leftovers, forged token) and 10 (repository URLs) of issue 32.
import { createHmac } from 'node:crypto';
import { call } from './client.mjs';

const fieldError = (res, field) => res.status === 400 && res.json?.data?.fields?.[field] !== undefined;

export const badInput = {
  id: 6,
  title: 'bad input answers 400 with a field error',
  async run(ctx) {
    const checks = [];
    const login = await call(ctx.base, 'POST', '/api/login', { body: { username: 'a\u0000b', password: 'x' } });
    checks.push({ what: 'login NUL (signed out)', res: login, ok: fieldError(login, 'username') });
    for (const list of ['users', 'teams', 'apps']) {
      const res = await call(ctx.base, 'GET', `/api/${list}?q=a%00b`, { token: ctx.admin.accessToken });
      checks.push({ what: `${list}?q=NUL`, res, ok: fieldError(res, 'q') });
    }
    const app = await ctx.fixtures.createApp({ name: `${ctx.prefix}-agent`, repoUrl: 'https://example.invalid/p.git' });
    if (app.status < 400) {
      const beat = await call(ctx.base, 'POST', '/api/coverage/agents/heartbeat', {
        token: app.json.data.ingestionToken,
        body: { app: app.json.data.id, agentId: 'agent\u00001', envType: 'test', status: 'HEART_BEAT_DONE' },
      });
      checks.push({ what: 'heart-beat NUL', res: beat, ok: fieldError(beat, 'agentId') });
    }
    const failed = checks.filter((c) => !c.ok);
    return {
      pass: failed.length === 0,
      observed: checks.map((c) => `${c.what}: ${c.res.status}`).join(', '),
    };
  },
};

/** Whether a Content-Security-Policy forbids inline script and sets frame-ancestors. */
function strictPolicy(policy) {
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
  const script = directives.get('script-src') ?? directives.get('default-src');
  return Boolean(script) && !script.includes("'unsafe-inline'") && directives.has('frame-ancestors');
}

export const contentSecurityPolicy = {
  id: 8,
  title: 'a strict Content-Security-Policy',
  async run(ctx) {
    const page = await call(ctx.base, 'GET', '/');
    const policy = page.headers.get('content-security-policy');
    return {
      pass: Boolean(policy) && strictPolicy(policy),
      observed: policy ? `GET / ${page.status}, CSP: ${policy.slice(0, 160)}` : `GET / ${page.status}, no CSP header`,
    };
  },
};

function hs256(secret, payload) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

export const leftovers = {
  id: 9,
  title: 'a forged token with a non-UUID subject answers 401',
  async run(ctx) {
    const note = '.incoming-* leftovers and killed builds after a crash: not probeable remotely';
    if (!ctx.jwtSecret) return { skip: `no signing key (give --jwt-secret or --data-dir); ${note}` };
    const now = Math.floor(Date.now() / 1000);
    const token = hs256(ctx.jwtSecret, { sub: 'not-a-uuid', iat: now, exp: now + 120 });
    const me = await call(ctx.base, 'GET', '/api/me', { token });
    return { pass: me.status === 401, observed: `GET /api/me with sub "not-a-uuid": ${me.status}; ${note}` };
  },
};

export const repositoryUrls = {
  id: 10,
  title: 'no link-local, metadata or server-path repositories',
  async run(ctx) {
    const answers = [];
    for (const [label, repoUrl] of [
      ['metadata address', 'https://169.254.169.254/latest/meta-data'],
      ['server path', '/proc/self/environ'],
    ]) {
      const res = await ctx.fixtures.createApp({ name: `${ctx.prefix}-url-${answers.length}`, repoUrl });
      answers.push({ label, res });
    }
    return {
      pass: answers.every((a) => a.res.status >= 400 && a.res.status < 500),
      observed: answers.map((a) => `${a.label}: ${a.res.status}`).join(', '),
    };
  },
};
