import { PATHS } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { stompListener, useTwoTeams } from './support.ts';

// Issue 32, finding 4: publishing is for the server, agents (their own app's reports) and administrators.
describe('who may publish on the message centre', () => {
  const t = useTwoTeams();
  const publish = (payload: object, headers: Record<string, string>) =>
    t.call('POST', PATHS.messages, payload, headers);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const history = async (reportId: string) =>
    (await t.call('GET', `${PATHS.messages}?reportId=${reportId}`)).json().data;

  it('refuses a developer or tester a fake result, heart-beat or notice: 403, nothing stored, nothing delivered', async () => {
    const tester = await t.createUser('tess', 'tester');
    const admin = await stompListener(t.url, t.admin.token);
    const fakes = [
      { id: 'fake-success', title: 'Report ready', report_id: t.checkout.reportId, status: 'SUCCESS' },
      { id: 'fake-beat', report_id: t.invoices.reportId, agent_id: 'a', status: 'HEART_BEAT_DONE', ip: '1.2.3.4' },
      { id: 'fake-notice', title: 'Your password expires: sign in at https://evil.example', message_type: 'NOTICE' },
    ];
    for (const headers of [t.dev.headers, tester.headers]) {
      for (const fake of fakes) expect((await publish(fake, headers)).statusCode).toBe(403);
    }
    expect((await history(t.checkout.reportId)).total).toBe(0);
    expect((await history(t.invoices.reportId)).total).toBe(0);
    // a notice published after them reaches the administrator, and none of the fakes came before it
    await t.app.messages.publish({ id: 'after-fakes', title: 'marker', message_type: 'NOTICE' });
    await admin.waitFor('after-fakes');
    expect(admin.ids()).toEqual(['after-fakes']);
    await admin.client.deactivate();
    expect((await publish({ title: 'x' }, {})).statusCode).toBe(401);
  });

  it("lets an agent's ingestion token publish heart-beats for its own app's reports only", async () => {
    const beat = { agent_id: 'qa-1', status: 'HEART_BEAT_DONE', title: 'alive' };
    const own = await publish({ ...beat, report_id: t.checkout.reportId }, bearer(t.checkout.token));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data).toMatchObject({ report_id: t.checkout.reportId, ip: '127.0.0.1' });
    // an idle agent's heart-beats are kept under its app's id (as `sextant agent` sends them)
    expect((await publish({ ...beat, report_id: t.checkout.id }, bearer(t.checkout.token))).statusCode).toBe(200);

    const before = (await history(t.invoices.reportId)).total;
    const theirs = await publish({ ...beat, report_id: t.invoices.reportId }, bearer(t.checkout.token));
    expect(theirs.statusCode).toBe(403);
    expect((await publish({ ...beat, report_id: t.invoices.id }, bearer(t.checkout.token))).statusCode).toBe(403);
    const result = { title: 'Report ready', report_id: t.checkout.reportId, status: 'SUCCESS' };
    expect((await publish(result, bearer(t.checkout.token))).statusCode).toBe(403);
    expect((await publish({ title: 'notice' }, bearer(t.checkout.token))).statusCode).toBe(403);
    expect((await history(t.invoices.reportId)).total).toBe(before);
    expect((await publish(beat, bearer('not-a-token'))).statusCode).toBe(401);
  });

  it('sets date and IP itself: those of the body are ignored', async () => {
    const past = '2001-01-01T00:00:00.000Z';
    const start = Date.now();
    const sent = { report_id: t.checkout.reportId, agent_id: 'qa-2', status: 'HEART_BEAT_DONE', date: past };
    for (const headers of [t.admin.headers, bearer(t.checkout.token)]) {
      const res = await publish({ ...sent, ip: '10.6.6.6' }, headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.ip).toBe('127.0.0.1');
      expect(Date.parse(res.json().data.date)).toBeGreaterThanOrEqual(start - 1000);
    }
    const beats = await t.call('GET', `${PATHS.messageHeartbeats}?reportId=${t.checkout.reportId}`);
    const qa2 = beats.json().data.find((b: { agent_id: string }) => b.agent_id === 'qa-2');
    expect(qa2.ip).toBe('127.0.0.1');
    expect(qa2.date).not.toBe(past);
  });
});
