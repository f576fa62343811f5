import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@sextant/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, useIntakeApp } from './support.ts';

/** Issue 37, specification point 3: a `sextant agent` heart-beat kept per report it feeds, and per app. */
describe('sextant agent heart-beats per report', () => {
  const t = useIntakeApp();
  let server = '';
  const work = mkdtempSync(join(tmpdir(), 'sx-agent-reports-'));
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const report = async (name: string, newVersion: string, envType: string, testType: 1 | 2) => {
    const res = await t.call('POST', '/api/reports', {
      app: 'checkout',
      name,
      baseVersion: 'v1',
      newVersion,
      envType,
      testType,
      coverageType: 'full',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const beatsOf = async (reportId: string) =>
    (await t.call('GET', `/api/messages/heartbeats?reportId=${reportId}`)).json().data as Record<string, unknown>[];
  const agentRun = async (agentId: string, commit: string) => {
    const dir = join(work, agentId);
    mkdirSync(join(dir, 'target'), { recursive: true });
    copyFileSync(join(FIXTURES, 'jacoco/jacoco.xml'), join(dir, 'target/jacoco.xml'));
    const out: string[] = [];
    const io = { cwd: dir, stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s), colour: false };
    const args = ['agent', '--server', server, '--token', t.checkout.token, '--app', 'checkout', '--env', 'test'];
    const code = await runCli(
      [...args, '--agent-id', agentId, '--commit', commit, '--watch', 'target/*.xml', '--once'],
      io,
    );
    expect(code, out.join('')).toBe(0);
  };

  it("appears in the table of each report it feeds, with its IP and time, and in the app's agents", async () => {
    const fed = await report('functional v5', 'v5', 'test', 2);
    const fedToo = await report('functional v5 again', 'v5', 'test', 2);
    const otherEnv = await report('staging v5', 'v5', 'staging', 2);
    const otherVersion = await report('functional v6', 'v6', 'test', 2);
    const unitTests = await report('unit v5', 'v5', 'test', 1);
    const before = Date.now();
    await agentRun('qa-box-5', 'v5');

    for (const id of [fed, fedToo]) {
      const beats = await beatsOf(id);
      expect(beats).toMatchObject([{ agent_id: 'qa-box-5', status: 'HEART_BEAT_DONE', ip: '127.0.0.1' }]);
      expect(Date.parse(String(beats[0]?.date))).toBeGreaterThanOrEqual(before - 1000);
    }
    for (const id of [otherEnv, otherVersion, unitTests]) expect(await beatsOf(id)).toEqual([]);
    // An agent beating for no report is kept under its app's id, as before.
    expect(await beatsOf(t.checkout.id)).toEqual([]);

    const agents = (await t.call('GET', `/api/apps/${t.checkout.id}/agents`)).json().data;
    expect(agents).toMatchObject([
      { agentId: 'qa-box-5', envType: 'test', ip: '127.0.0.1', lastStatus: 'HEART_BEAT_DONE' },
    ]);
  });

  it('names the reports a heart-beat was kept for, and keeps an idle one under its app', async () => {
    const id = await report('functional v7', 'v7', 'test', 2);
    const body = { app: 'checkout', agentId: 'qa-box-7', envType: 'test', status: 'HEART_BEAT_ERROR', error: 'x' };
    const headers = { authorization: `Bearer ${t.checkout.token}` };
    const url = '/api/coverage/agents/heartbeat';
    const fed = await t.app.inject({ method: 'POST', url, headers, payload: { ...body, commit: 'v7', testType: 2 } });
    expect(fed.json().data).toMatchObject({ agentId: 'qa-box-7', reportIds: [id] });
    expect(await beatsOf(id)).toMatchObject([{ agent_id: 'qa-box-7', status: 'HEART_BEAT_ERROR' }]);
    const idle = await t.app.inject({ method: 'POST', url, headers, payload: { ...body, commit: 'v8' } });
    expect(idle.json().data).toMatchObject({ agentId: 'qa-box-7', reportIds: [] });
    expect(await beatsOf(t.checkout.id)).toMatchObject([{ agent_id: 'qa-box-7', status: 'HEART_BEAT_ERROR' }]);
  });
});
