import { PATHS, WS_HISTORY_TRIM_SLACK } from '@sextant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, signIn } from '../support/build-test-app.ts';

describe('report history limit (specification point 4)', () => {
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signIn(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => t?.close());

  const total = async (reportId: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `${PATHS.messages}?reportId=${reportId}&perPage=5`,
        headers: admin.headers,
      })
    ).json().data;

  it('keeps everything up to wsMaxHistoryLength + 500, then trims to the newest wsMaxHistoryLength', async () => {
    const limit = 4;
    const saved = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: admin.headers,
      payload: { wsMaxHistoryLength: limit },
    });
    expect(saved.statusCode).toBe(200);
    const ceiling = limit + WS_HISTORY_TRIM_SLACK;
    for (let i = 1; i <= ceiling; i++) {
      await t.app.messages.publish({ title: `step ${i}`, report_id: 'long', status: 'CLONING' });
    }
    await t.app.messages.publish({ title: 'other report', report_id: 'short', status: 'CLONING' });
    expect((await total('long')).total).toBe(ceiling);
    await t.app.messages.publish({ title: `step ${ceiling + 1}`, report_id: 'long', status: 'CLONING' });
    const after = await total('long');
    expect(after.total).toBe(limit);
    expect(after.items.map((m: { title: string }) => m.title)).toEqual(
      [ceiling + 1, ceiling, ceiling - 1, ceiling - 2].map((n) => `step ${n}`),
    );
    expect((await total('short')).total).toBe(1);
  }, 60_000);
});
