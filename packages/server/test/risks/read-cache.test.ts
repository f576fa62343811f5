import { envelopeSchema, pageSchema, RiskHeadlineSchema, RiskItemSchema } from '@sextant/api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { GenerationCache } from '../../src/lib/generation-cache.ts';
import { ADMIN_PASSWORD, buildTestApp, signIn, testAppOptions } from '../support/build-test-app.ts';

const ListAnswer = envelopeSchema(pageSchema(RiskItemSchema.strict())).strict();
const HeadlineAnswer = envelopeSchema(RiskHeadlineSchema.strict()).strict();
const HOME = '/api/risks?state=observing,pending&perPage=50';

/**
 * The home screen's answer cache (lib/generation-cache.ts, issue 34) on two server instances over
 * one database, as several web processes run: an answer each instance keeps must never hide a risk write
 * made through the other instance, or by a report's transaction. The list and headline are written
 * without the schema's runtime check (lib/typed-json.ts), so their answers are parsed by it here.
 */
describe('the risk answer cache across instances', () => {
  // Built here rather than by useAdminApp: two instances start slowly on a loaded machine.
  const t = {} as Awaited<ReturnType<typeof buildTestApp>> & { admin: { headers: Record<string, string> } };
  let other: FastifyInstance;
  let otherHeaders: Record<string, string>;
  beforeAll(async () => {
    Object.assign(t, await buildTestApp());
    t.admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
    other = await buildApp(testAppOptions({ db: t.database.db, runJobs: false }));
    otherHeaders = (await signIn(other, 'admin', ADMIN_PASSWORD)).headers;
  }, 300_000);
  afterAll(async () => {
    await other?.close();
    await t.close?.();
  });

  const call = async (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const headers = app === other ? otherHeaders : t.admin.headers;
    const res = await app.inject({ method, url, headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const home = async (app: FastifyInstance) => ListAnswer.parse(await call(app, 'GET', HOME)).data;
  const headline = async (app: FastifyInstance) =>
    HeadlineAnswer.parse(await call(app, 'GET', '/api/risks/headline')).data;
  const states = async (app: FastifyInstance) =>
    Object.fromEntries(
      ListAnswer.parse(await call(app, 'GET', '/api/risks?perPage=50')).data.items.map((i) => [i.methodName, i.state]),
    );

  it('gives every write made elsewhere at the next read, and keeps answers while nothing is written', async () => {
    const pool = t.database.pool;
    await pool.query(`insert into teams (name) values ('cached')`);
    await pool.query(`insert into apps (team_id, name, language, repo_url, default_branch, coverage_source,
        ingestion_token_hash)
      select id, 'cached-app', 'java', 'https://example.test/cached.git', 'main', 'upload', 'hash-cached'
      from teams where name = 'cached'`);
    await pool.query(
      `insert into risk_items (app_id, test_type, version, class_name, method_name, signature, file_path,
         line_covered, line_total, changed_lines, state)
       select a.id, 1, 'v1', 'pkg/C', 'm' || g, '()V', 'src/pkg/C.java', g % 3, 10, g, 'observing'
       from generate_series(1, 6) g, apps a where a.name = 'cached-app'`,
    );
    // Both instances read (and keep) the list and the headline.
    for (const app of [t.app, other]) {
      expect((await home(app)).total).toBe(6);
      expect(await headline(app)).toMatchObject({ open: 6, pending: 0 });
    }

    // Asked for a decision through one instance: the other's next answers show it.
    const byName = new Map((await home(t.app)).items.map((i) => [i.methodName, i.id]));
    await call(t.app, 'POST', '/api/risks/ask-decision', { ids: [byName.get('m1')] });
    expect((await states(other)).m1).toBe('pending');
    expect(await headline(other)).toMatchObject({ open: 6, pending: 1 });

    // Judged through the other instance: the first one's answers show it.
    await call(other, 'PATCH', '/api/settings', { showJudgment: true });
    await call(other, 'POST', `/api/risks/${byName.get('m2')}/judgment`, { judgment: 'accepted', reason: 'cached' });
    expect((await states(t.app)).m2).toBe('judged');
    expect((await home(t.app)).total).toBe(5);
    expect(await headline(t.app)).toMatchObject({ open: 5, pending: 1 });

    // Written by neither (as a report's transaction writes): both see it.
    await pool.query(`update risk_items set state = 'resolved', resolved_at = now() where method_name = 'm3'`);
    for (const app of [t.app, other]) {
      expect((await home(app)).total, 'resolved by a report').toBe(4);
      expect((await headline(app)).resolvedThisWeek).toBe(1);
    }

    // While no write bumps the generation, an answer is given again as kept: with the bump switched
    // off, a change made behind the cache's back stays unseen (which is why every write must bump it).
    expect((await home(t.app)).total).toBe(4);
    await pool.query('alter table risk_items disable trigger risk_generation_bump');
    try {
      await pool.query(`update risk_items set state = 'resolved', resolved_at = now() where method_name = 'm4'`);
      expect((await home(t.app)).total, 'kept answer').toBe(4);
    } finally {
      await pool.query('alter table risk_items enable trigger risk_generation_bump');
    }
    await pool.query(`update risk_items set changed_lines = changed_lines + 1 where method_name = 'm5'`);
    expect((await home(t.app)).total, 'after a write').toBe(3);
  });

  it('shares a generation read only among calls made before it was sent', async () => {
    let n = 0;
    const sent: (() => void)[] = [];
    // A generation source answering when told: `n` at the moment the read was sent.
    const cache = new GenerationCache(() => {
      const at = ++n;
      return new Promise<number>((resolve) => sent.push(() => resolve(at)));
    });
    const a = cache.generation(); // sent at once
    // b and c come while read 1 is on its way (it may not see what was committed just before them).
    const b = cache.generation();
    const c = cache.generation();
    expect(sent).toHaveLength(1);
    sent[0]?.();
    expect(await a).toBe(1);
    // They wait for read 2, sent once read 1 is back: one read for both.
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1]?.();
    expect([await b, await c]).toEqual([2, 2]);
  });
});
