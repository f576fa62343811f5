import { type FakeZentao, type FakeZentaoData, startFakeZentao } from '@sextant/cli/zentao-shaped';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAdminApi } from '../admin/support.ts';

type Summary = {
  by: string;
  products: number;
  requirements: { created: number; updated: number; unchanged: number; refused: number };
  cases: { created: number; updated: number; unchanged: number; refused: number };
  refusals: { kind: string; zentaoId: number; reason: string }[];
};

function zentaoData(): FakeZentaoData {
  return {
    products: [
      { id: 1, name: 'Billing', code: 'BILL' },
      { id: 2, name: 'Nowhere', code: 'NOPE' },
    ],
    stories: {
      1: [
        { id: 101, title: 'Refunds need approval', status: 'active', stage: 'developing', product: 1 },
        { id: 102, title: 'Invoices in PDF', status: 'closed', stage: 'released', product: 1 },
        { id: 103, title: '   ', status: 'active', stage: 'wait', product: 1 },
      ],
      2: [{ id: 201, title: 'Lost story', status: 'active', stage: 'wait', product: 2 }],
    },
    testcases: {
      1: [
        { id: 11, title: 'Refund over limit asks approval', story: 101, type: 'feature', auto: 'no', product: 1 },
        { id: 12, title: 'PDF invoice downloads', story: 102, type: 'feature', auto: 'auto', product: 1 },
      ],
      2: [{ id: 21, title: 'Lost case', story: 201, type: 'feature', auto: 'no', product: 2 }],
    },
  };
}

/** Issue 35: ZenTao's account in system settings, the /zentao status, imports into requirements and cases. */
describe('ZenTao', () => {
  const t = useAdminApi();
  let zentao: FakeZentao;
  let appId = '';
  beforeAll(async () => {
    zentao = await startFakeZentao({ account: 'importer', password: 'zt-secret-1', data: zentaoData() });
    const teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Payments' })).id;
    appId = (
      await t.ok<{ id: string }>('POST', '/api/apps', { teamId, name: 'billing', language: 'java', repoUrl: '/srv/b' })
    ).id;
    await t.ok('POST', '/api/projects', { name: 'Billing', teamId, appIds: [appId] });
  });
  afterAll(async () => zentao?.close());

  it('refuses bad settings with a clear message and stores nothing', async () => {
    const bad = async (payload: object, field: string, message: RegExp) => {
      const res = await t.call('PATCH', '/api/zentao/config', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data.fields[field]).toMatch(message);
    };
    await bad({ url: 'ftp://zentao.example', account: 'a', password: 'b' }, 'url', /http\(s\) address/);
    await bad({ url: 'https://u:p@zentao.example', account: 'a', password: 'b' }, 'url', /without user/);
    await bad({ url: zentao.url, account: '', password: 'b' }, 'account', /API account/);
    await bad({ url: zentao.url, account: 'importer' }, 'password', /password/);
    expect(await t.ok('GET', '/api/zentao/config')).toEqual({ url: '', account: '', passwordSet: false });
    const status = await t.ok<{ url: string | null; importReady: boolean }>('GET', '/api/zentao');
    expect(status).toMatchObject({ url: null, importReady: false, frame: null });
    const res = await t.call('POST', '/api/zentao/import');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/not all set/);
  });

  it('lets only administrators set the account, never answers the password, and logs it redacted', async () => {
    const payload = { url: zentao.url, account: 'importer', password: 'zt-secret-1' };
    expect((await t.call('PATCH', '/api/zentao/config', payload, t.client)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/zentao/config', undefined, t.client)).statusCode).toBe(403);
    expect((await t.call('POST', '/api/zentao/import', undefined, t.client)).statusCode).toBe(403);
    const saved = await t.ok('PATCH', '/api/zentao/config', payload);
    expect(saved).toEqual({ url: zentao.url, account: 'importer', passwordSet: true });
    // Changing only the address keeps the stored password.
    expect(await t.ok('PATCH', '/api/zentao/config', { url: zentao.url, account: 'importer' })).toMatchObject({
      passwordSet: true,
    });
    const settings = await t.call('GET', '/api/settings');
    expect(settings.json().data.zentaoUrl).toBe(zentao.url);
    expect(settings.body).not.toContain('zt-secret-1');
    expect(settings.body).not.toContain('importer');
    const log = await t.auditOf('zentao', 'config');
    expect(JSON.stringify(log)).not.toContain('zt-secret-1');
    expect(log[0]?.changes).toMatchObject({ url: { to: zentao.url }, password: { to: '***' } });
    const row = await t.db.execute(sql`select value from settings where key = 'zentaoPassword'`);
    expect(JSON.stringify(row)).not.toContain('zt-secret-1');
  });

  it("lets our pages frame ZenTao's origin and no other, and tells the screen whether ZenTao allows it", async () => {
    const origin = new URL(zentao.url).origin;
    const page = await t.app.inject({ url: '/zentao', headers: { host: 'sextant.example:8080' } });
    const frameSrc = /frame-src ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1]?.split(' ');
    expect(frameSrc).toContain(origin);
    expect(frameSrc?.filter((s) => !s.includes('sextant.example') && s !== "'self'")).toEqual([origin]);
    const status = async () => (await t.ok<{ frame: { verdict: string } }>('GET', '/api/zentao')).frame.verdict;
    zentao.homeHeaders = {};
    expect(await status()).toBe('allowed');
    zentao.homeHeaders = { 'x-frame-options': 'SAMEORIGIN' };
    expect(await status()).toBe('x-frame-options');
    zentao.homeHeaders = { 'content-security-policy': "frame-ancestors 'self'" };
    expect(await status()).toBe('frame-ancestors');
    zentao.homeHeaders = {};
    // The screen's status is for those who may read requirements; a plain client may not.
    expect((await t.call('GET', '/api/zentao', undefined, t.client)).statusCode).toBe(403);
  });

  it('imports stories and test cases with a summary, and a second run changes nothing', async () => {
    const first = await t.ok<Summary>('POST', '/api/zentao/import');
    expect(first).toMatchObject({
      by: 'admin',
      products: 2,
      requirements: { created: 2, updated: 0, unchanged: 0, refused: 2 },
      cases: { created: 2, updated: 0, unchanged: 0, refused: 1 },
    });
    expect(first.refusals.map((r) => [r.kind, r.zentaoId])).toEqual([
      ['product', 2],
      ['requirement', 103],
    ]);
    expect(first.refusals[0]).toMatchObject({ code: 'no-project', reason: 'No project is named "Nowhere".' });
    expect(first.refusals[1]).toMatchObject({ code: 'title', reason: expect.stringMatching(/^Title: /) });
    const reqs = await t.ok<{ items: { key: string; title: string; status: string }[] }>(
      'GET',
      '/api/requirements?sortBy=key',
    );
    expect(reqs.items.map((r) => [r.key, r.title, r.status])).toEqual([
      ['101', 'Refunds need approval', 'in-progress'],
      ['102', 'Invoices in PDF', 'closed'],
    ]);
    const cases = await t.ok<{ items: { key: string; type: string; requirementKey: string; tags: string[] }[] }>(
      'GET',
      `/api/cases?appId=${appId}&sortBy=key`,
    );
    expect(cases.items.map((c) => [c.key, c.type, c.requirementKey, c.tags])).toEqual([
      ['zentao-11', 'manual', '101', ['zentao', 'feature']],
      ['zentao-12', 'automated', '102', ['zentao', 'feature']],
    ]);
    const second = await t.ok<Summary>('POST', '/api/zentao/import');
    expect(second.requirements).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 2 });
    expect(second.cases).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 1 });
    const status = await t.ok<{ lastImport: Summary }>('GET', '/api/zentao');
    expect(status.lastImport.requirements).toEqual(second.requirements);
    const log = await t.auditOf('zentao', 'import');
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ action: 'import', actorName: 'admin' });
    expect(log[0]?.changes).toMatchObject({ summary: { to: { requirements: { created: 2 }, refusals: 2 } } });
  });

  it('updates what changed in ZenTao, re-signing in after an expired token', async () => {
    const data = zentaoData();
    (data.stories[1] ?? [])[0] = {
      id: 101,
      title: 'Refunds over 1000 need approval',
      status: 'active',
      stage: 'tested',
      product: 1,
    };
    (data.testcases[1] ?? []).push({
      id: 13,
      title: 'Refund audit trail',
      story: 101,
      type: 'security',
      auto: 'no',
      product: 1,
    });
    zentao.data = data;
    zentao.expireTokens();
    zentao.calls.length = 0;
    const third = await t.ok<Summary>('POST', '/api/zentao/import');
    expect(third.requirements).toEqual({ created: 0, updated: 1, unchanged: 1, refused: 2 });
    expect(third.cases).toEqual({ created: 1, updated: 0, unchanged: 2, refused: 1 });
    expect(zentao.calls.filter((c) => c === 'POST /tokens')).toHaveLength(1);
    const reqs = await t.ok<{ items: { key: string; title: string; status: string }[] }>(
      'GET',
      '/api/requirements?sortBy=key',
    );
    expect(reqs.items[0]).toMatchObject({ key: '101', title: 'Refunds over 1000 need approval', status: 'done' });
  });

  it("puts cases of a project with several apps into the app named as the product's code", async () => {
    const teamId = (await t.ok<{ id: string }>('POST', '/api/teams', { name: 'Ledgers' })).id;
    const app = async (name: string) =>
      (await t.ok<{ id: string }>('POST', '/api/apps', { teamId, name, language: 'java', repoUrl: `/srv/${name}` })).id;
    const [api, web, left, right] = [
      await app('ledger-api'),
      await app('ledger-web'),
      await app('w1'),
      await app('w2'),
    ];
    await t.ok('POST', '/api/projects', { name: 'Ledger', teamId, appIds: [api, web] });
    await t.ok('POST', '/api/projects', { name: 'Wallet', teamId, appIds: [left, right] });
    const data = zentaoData();
    data.products.push({ id: 3, name: 'Ledger', code: 'LEDGER-API' }, { id: 4, name: 'Wallet', code: 'WAL' });
    data.stories[3] = [];
    data.stories[4] = [];
    data.testcases[3] = [{ id: 31, title: 'Ledger balances', story: 0, type: 'feature', auto: 'no', product: 3 }];
    data.testcases[4] = [{ id: 41, title: 'Wallet top-up', story: 0, type: 'feature', auto: 'no', product: 4 }];
    zentao.data = data;
    const summary = await t.ok<Summary>('POST', '/api/zentao/import');
    expect(summary.cases.created).toBe(1);
    const cases = await t.ok<{ items: { key: string; requirementId: string | null }[] }>(
      'GET',
      `/api/cases?appId=${api}`,
    );
    expect(cases.items).toEqual([expect.objectContaining({ key: 'zentao-31', requirementId: null })]);
    expect(summary.refusals.find((r) => r.zentaoId === 41)?.reason).toBe(
      'Project "Wallet" delivers 2 apps and none is named "WAL" (the product\'s code).',
    );
  });

  it("stores nothing when ZenTao fails halfway through, and answers ZenTao's reason", async () => {
    const data = zentaoData();
    (data.stories[1] ?? []).push({ id: 104, title: 'Never stored', status: 'active', stage: 'wait', product: 1 });
    zentao.data = data;
    zentao.failNext('/products/2/testcases');
    const res = await t.call('POST', '/api/zentao/import');
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(
      'ZenTao answered GET /products/2/testcases: Database error: server has gone away. Nothing was imported.',
    );
    const reqs = await t.ok<{ items: { key: string }[] }>('GET', '/api/requirements?sortBy=key');
    expect(reqs.items.map((r) => r.key)).toEqual(['101', '102']);
    await t.ok('PATCH', '/api/zentao/config', { url: zentao.url, account: 'importer', password: 'wrong' });
    const refused = await t.call('POST', '/api/zentao/import');
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/refused the sign-in of account "importer"/);
  });
});
