import { PATHS, pathTo } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { useTwoTeams } from './support.ts';

// Issue 32, finding 5: notifications and report histories carry only what the user may read.
describe('notifications and message history by rights', () => {
  const t = useTwoTeams();
  const notifications = async (headers: Record<string, string>) => {
    const res = await t.call('GET', `${PATHS.notifications}?perPage=50`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { items: { id: string; title: string; text: string }[]; total: number; unread: number };
  };

  it("lists a team's report notifications to its members and administrators only, notices to everyone", async () => {
    const mirror = '/var/lib/sextant/data/mirrors/4a1b/objects';
    await t.app.messages.publish({
      id: 'shop-fail',
      report_id: t.checkout.reportId,
      status: 'CLONE_FAIL',
      title: 'checkout v2: CLONE_FAIL',
      text: `fatal: '${mirror}' does not appear to be a git repository`,
    });
    await t.app.messages.publish({ id: 'billing-ok', report_id: t.invoices.reportId, status: 'SUCCESS', title: 'ok' });
    await t.app.messages.publish({ id: 'notice', title: 'maintenance at noon', message_type: 'NOTICE' });

    const ids = async (headers: Record<string, string>) => (await notifications(headers)).items.map((m) => m.id);
    expect(await ids(t.visitor.headers)).toEqual(['notice']);
    expect(await ids(t.dev.headers)).toEqual(['notice', 'shop-fail']);
    expect(await ids(t.other.headers)).toEqual(['notice', 'billing-ok']);
    expect(await ids(t.admin.headers)).toEqual(['notice', 'billing-ok', 'shop-fail']);
    expect((await notifications(t.visitor.headers)).unread).toBe(1);

    // what is not yours cannot be marked either, and counts stay yours
    expect(
      (await t.call('POST', pathTo(PATHS.notificationRead, { id: 'billing-ok' }), undefined, t.dev.headers)).statusCode,
    ).toBe(404);
    expect((await t.call('POST', PATHS.notificationsReadAll, undefined, t.visitor.headers)).json().data).toEqual({
      unread: 0,
    });
  });

  it('names no server path in a message', async () => {
    const [shopFail] = (await notifications(t.dev.headers)).items.filter((m) => m.id === 'shop-fail');
    expect(shopFail?.text).toBe("fatal: '…/objects' does not appear to be a git repository");
    const history = await t.call('GET', `${PATHS.messages}?reportId=${t.checkout.reportId}`);
    expect(JSON.stringify(history.json().data)).not.toContain('/var/lib/sextant');
  });

  it("answers a report's history and heart-beats to readers of its team only", async () => {
    for (const path of [PATHS.messages, PATHS.messageHeartbeats]) {
      const url = `${path}?reportId=${t.checkout.reportId}`;
      expect((await t.call('GET', url, undefined, t.dev.headers)).statusCode).toBe(200);
      expect((await t.call('GET', url, undefined, t.other.headers)).statusCode).toBe(403);
      expect((await t.call('GET', url, undefined, t.visitor.headers)).statusCode).toBe(403);
    }
  });
});
