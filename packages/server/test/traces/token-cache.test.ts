import { describe, expect, it } from 'vitest';
import { createAppsService } from '../../src/modules/apps/index.ts';
import { AuditService } from '../../src/modules/audit/service.ts';
import { createTeamsService } from '../../src/modules/teams/index.ts';
import { bearer, useIntakeApp } from '../intake/support.ts';

const exportOf = (spanId: string) =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'orders-service' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId,
                name: 'GET /',
                startTimeUnixNano: (BigInt(Date.now()) * 1_000_000n).toString(),
                endTimeUnixNano: (BigInt(Date.now()) * 1_000_000n + 1000n).toString(),
              },
            ],
          },
        ],
      },
    ],
  });

/**
 * Ingestion tokens are remembered for a moment (each export would otherwise cost a query): a token
 * rotated or an app removed through this server stops working at once, and through another server
 * process within the memory's time (issue 36).
 */
describe('the remembered ingestion tokens of trace intake', () => {
  const t = useIntakeApp();
  let n = 0;
  const send = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/traces',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: exportOf((++n).toString(16).padStart(16, '0')),
    });
  const newApp = async (name: string) => {
    const checkout = (await t.call('GET', `/api/apps/${t.checkout.id}`)).json().data as { teamId: string };
    const res = await t.call('POST', '/api/apps', {
      teamId: checkout.teamId,
      name,
      language: 'java',
      repoUrl: `https://example.invalid/${name}.git`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; ingestionToken: string };
  };

  it('refuses a rotated token at once, and takes the new one', async () => {
    const app = await newApp('rotated');
    expect((await send(app.ingestionToken)).statusCode).toBe(200); // now remembered
    const rotated = await t.call('POST', `/api/apps/${app.id}/rotateToken`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect((await send(app.ingestionToken)).statusCode).toBe(401);
    expect((await send(rotated.json().data.ingestionToken)).statusCode).toBe(200);
  });

  it("refuses a removed app's token at once", async () => {
    const app = await newApp('removed');
    expect((await send(app.ingestionToken)).statusCode).toBe(200);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/apps/${app.id}`, headers: t.admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await send(app.ingestionToken)).statusCode).toBe(401);
  });

  it('refuses a token another server process rotated once the memory has lapsed', async () => {
    const app = await newApp('rotated-elsewhere');
    expect((await send(app.ingestionToken)).statusCode).toBe(200);
    // Another process: its own services on the same database, so this server's memory is not told.
    const audit = new AuditService(t.db);
    const elsewhere = createAppsService(t.db, { audit, teams: createTeamsService(t.db, audit) });
    const admin = (await t.call('GET', '/api/me')).json().data as { id: string };
    const { ingestionToken } = await elsewhere.rotateToken(app.id, { id: admin.id });
    const deadline = Date.now() + 30_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await send(app.ingestionToken)).statusCode;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
    expect((await send(ingestionToken)).statusCode).toBe(200);
  });
});
