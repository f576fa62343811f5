import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BROADCAST_DESTINATION, type Delivery } from '../../src/realtime/broker.ts';
import { bearer, useIntakeApp } from './support.ts';

describe('agent heart-beats and the agents list', () => {
  const t = useIntakeApp();
  const beat = (body: Record<string, unknown>, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/coverage/agents/heartbeat', headers, payload: body });
  const agentRows = async () =>
    (await t.db.execute(sql`select * from coverage_agents where app_id = ${t.checkout.id}`)).rows;

  it('records a heart-beat, replaces it with the next one, and publishes both on the message centre', async () => {
    const pushed: Delivery[] = [];
    const unsubscribe = t.app.broker.subscribe(
      BROADCAST_DESTINATION,
      { userId: 'observer', mayReceive: () => true, deliver: (_id, delivery) => pushed.push(delivery) },
      'sub-0',
    );
    const first = await beat(
      { app: 'checkout', agentId: 'qa-box-1', envType: 'test', status: 'HEART_BEAT_DONE', version: '0.1.0' },
      bearer(t.checkout.token),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({
      agentId: 'qa-box-1',
      envType: 'test',
      ip: '127.0.0.1',
      version: '0.1.0',
      lastStatus: 'HEART_BEAT_DONE',
      lastError: null,
    });
    const second = await beat(
      {
        app: 'checkout',
        agentId: 'qa-box-1',
        envType: 'test',
        status: 'HEART_BEAT_ERROR',
        error: 'upload failed: 413',
      },
      t.dev,
    );
    expect(second.statusCode, second.body).toBe(200);
    unsubscribe();

    const rows = await agentRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ last_status: 'HEART_BEAT_ERROR', last_error: 'upload failed: 413', version: null });

    const messages = pushed.map((d) => JSON.parse(Buffer.from(d.body).toString('utf8')));
    expect(messages.map((m) => [m.status, m.agent_id, m.report_id, m.ip])).toEqual([
      ['HEART_BEAT_DONE', 'qa-box-1', t.checkout.id, '127.0.0.1'],
      ['HEART_BEAT_ERROR', 'qa-box-1', t.checkout.id, '127.0.0.1'],
    ]);
    expect(messages[1].text).toBe('upload failed: 413');
    const history = await t.call('GET', `/api/messages?reportId=${t.checkout.id}`);
    expect(history.json().data.total).toBe(2);
    const lastBeats = await t.call('GET', `/api/messages/heartbeats?reportId=${t.checkout.id}`);
    expect(lastBeats.json().data).toMatchObject([{ agent_id: 'qa-box-1', status: 'HEART_BEAT_ERROR' }]);
  });

  it("lists an app's agents to who may read apps", async () => {
    await beat(
      { app: 'checkout', agentId: 'ci-7', envType: 'dev', status: 'HEART_BEAT_DONE' },
      bearer(t.checkout.token),
    );
    const res = await t.call('GET', `/api/apps/${t.checkout.id}/agents`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((a: { agentId: string; envType: string }) => [a.envType, a.agentId])).toEqual([
      ['dev', 'ci-7'],
      ['test', 'qa-box-1'],
    ]);
    expect((await t.call('GET', `/api/apps/${t.invoices.id}/agents`)).json().data).toEqual([]);
    expect((await t.call('GET', '/api/apps/00000000-0000-4000-8000-000000000000/agents')).statusCode).toBe(404);
    expect((await t.call('GET', `/api/apps/${t.checkout.id}/agents`, undefined, t.client)).statusCode).toBe(403);
  });

  it('refuses heart-beats with a wrong token, for another team, for an unknown app or with bad fields', async () => {
    const ok = { app: 'checkout', agentId: 'x', envType: 'test', status: 'HEART_BEAT_DONE' };
    const before = (await agentRows()).length;
    expect((await beat(ok, bearer('nope'))).json()).toMatchObject({ code: 401 });
    expect((await beat(ok, t.other)).json()).toMatchObject({ code: 403 });
    expect((await beat(ok, bearer(t.invoices.token))).json()).toMatchObject({ code: 403 });
    expect((await beat({ ...ok, app: 'ghost' }, t.admin)).json()).toMatchObject({ code: 404 });
    const bad = await beat({ ...ok, status: 'SUCCESS', envType: 'Not An Env' }, bearer(t.checkout.token));
    expect(bad.json()).toMatchObject({ code: 400, data: { error: 'validation-failed' } });
    expect(Object.keys(bad.json().data.fields).sort()).toEqual(['envType', 'status']);
    expect((await agentRows()).length).toBe(before);
  });
});
