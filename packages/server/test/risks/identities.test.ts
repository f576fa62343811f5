import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditLog, MyCoverage, RiskItem } from '@sextant/api';
import { afterAll, describe, expect, it } from 'vitest';
import { addUpload, fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';

type Headers = Record<string, string>;

/**
 * Git identities (issue 34): a user whose account e-mail is not the one they commit under lists the
 * names and addresses they do; blame authors of a real c8 report (`Bob Fixture <bob@example.com>`)
 * then are theirs in "my" risks, my analytics, judgments and notifications. The report's status
 * transitions are in the audit log, one entry each.
 */
describe('git identities and my analytics', () => {
  const t = useReportsApp();
  const repos: string[] = [];
  afterAll(() => {
    for (const repo of repos) rmSync(dirname(repo), { recursive: true, force: true });
  });
  const as = (headers: Headers) => ({
    get: (url: string) => t.call('GET', url, undefined, headers),
    put: (url: string, identities: unknown) => t.call('PUT', url, { identities }, headers),
  });

  it('matches blame authors by listed name and e-mail, refuses bad and taken identities, audits transitions', async () => {
    const robert = await t.createUser('robert', 'developer');
    const other = await t.createUser('other', 'developer');
    await t.ok('PATCH', `/api/teams/${t.teamId}`, { memberIds: [robert.id, other.id] });
    const me = as(robert.headers);

    // Nothing listed: none of the report's authors is robert (robert@example.test).
    expect((await me.get('/api/me/gitIdentities')).json().data).toEqual({ identities: [] });
    // A name, in another case: matched case-insensitively, before the report runs.
    const named = await me.put('/api/me/gitIdentities', ['  BOB fixture ']);
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().data).toEqual({ identities: ['BOB fixture'] });

    const repo = fixtureRepo('js');
    repos.push(repo);
    const appId = (
      await t.ok<{ id: string }>('POST', '/api/apps', {
        teamId: t.teamId,
        language: 'javascript',
        environments: ['test'],
        name: 'shop',
        repoUrl: repo,
      })
    ).id;
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture: 'js/coverage-final.json',
      format: 'istanbul',
    });
    const report = await t.ok<{ id: string }>('POST', '/api/reports', {
      app: 'shop',
      name: 'c8',
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 1,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, report.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');

    // The pipeline's transitions, each once, by the pipeline (no user).
    const log = await t.call('GET', `/api/auditLogs?entity=report&entityId=${report.id}&perPage=100&sortDesc=false`);
    const entries = log.json().data.items as AuditLog[];
    const transitions = entries.filter((e) => e.actorName === 'report pipeline');
    expect(transitions.map((e) => [e.changes.status?.from, e.changes.status?.to])).toEqual([
      ['QUEUED', 'CLONING'],
      ['CLONING', 'DIFF_METHODS'],
      ['DIFF_METHODS', 'ADDING_MODULE'],
      ['ADDING_MODULE', 'ENV_REPORT'],
      ['ENV_REPORT', 'GENERATING_REPORT'],
      ['GENERATING_REPORT', 'SUCCESS'],
    ]);
    expect(transitions.every((e) => e.actorId === null && e.action === 'update')).toBe(true);

    // Told once, as the author by name.
    const notes = (await me.get('/api/notifications?perPage=50')).json().data.items as { text: string }[];
    expect(notes.map((n) => n.text).filter((text) => text.includes('shop head'))).toEqual([
      '1 changed method(s) of yours in shop head are below the passing grade.',
    ]);
    const mine = async (headers: Headers) => {
      const res = await t.call('GET', '/api/risks?mine=true&perPage=50', undefined, headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.items as RiskItem[];
    };
    const items = await mine(robert.headers);
    expect(items.map((i) => [i.methodName, i.author])).toEqual([['legacyTotal', 'Bob Fixture <bob@example.com>']]);
    expect(await mine(other.headers)).toEqual([]);

    // My analytics: the report's changed methods of Bob, as robert's.
    const analytics = async (headers: Headers) => {
      const res = await t.call('GET', '/api/analytics/mine', undefined, headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as MyCoverage;
    };
    const figures = await analytics(robert.headers);
    expect(figures.identities).toEqual(['robert@example.test', 'BOB fixture']);
    expect(figures.authors).toEqual(['Bob Fixture <bob@example.com>']);
    expect(figures.reports.map((r) => [r.reportId, r.appName, r.version, r.testType])).toEqual([
      [report.id, 'shop', 'head', 1],
    ]);
    const [row] = figures.reports;
    expect(row?.changedMethods).toBeGreaterThan(0);
    expect(row?.coveredMethods).toBeLessThan(row?.changedMethods ?? 0);
    expect(row?.lineCoverage).not.toBeNull();
    expect((await analytics(other.headers)).reports).toEqual([]);

    // Committer analytics: Bob's summaries are robert's, under robert's account (one person across aliases).
    const committers = await t.ok<{ items: { author: string | null; changedMethods: number }[] }>(
      'GET',
      `/api/analytics/committers?appId=${appId}&perPage=50`,
    );
    const authorsListed = committers.items.map((c) => c.author);
    expect(authorsListed).toContain('robert <robert@example.test>');
    expect(authorsListed).not.toContain('Bob Fixture <bob@example.com>');
    expect(committers.items.find((c) => c.author === 'robert <robert@example.test>')?.changedMethods).toBe(
      row?.changedMethods,
    );
    const trend = await t.ok<{ series: { author: string | null }[] }>(
      'GET',
      `/api/analytics/committers/trend?appId=${appId}`,
    );
    expect(trend.series.map((s) => s.author)).toContain('robert <robert@example.test>');

    // The author judges through their identity.
    await t.ok('PATCH', '/api/settings', { showJudgment: true });
    expect((await mine(robert.headers))[0]?.mayJudge).toBe(true);
    // Whom robert (no read User) may assign a needs-test judgment: the app's team, the author (him).
    const [item] = items;
    const assignees = await me.get(`/api/risks/${item?.id}/assignees`);
    expect(assignees.statusCode, assignees.body).toBe(200);
    expect(assignees.json().data.map((u: { username: string }) => u.username)).toEqual(['other', 'robert']);
    expect((await me.get('/api/risks/00000000-0000-0000-0000-000000000000/assignees')).statusCode).toBe(404);
    await t.ok('PATCH', '/api/settings', { showJudgment: false });

    // Bad input: 400, and the list is as it was.
    for (const bad of [
      ['a <b@c.d>'],
      ['x@'],
      ['bob', 'BOB'],
      Array.from({ length: 21 }, (_, i) => `n${i}`),
      [''],
      'x',
    ]) {
      const res = await me.put('/api/me/gitIdentities', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // Another account's e-mail, or an identity another account lists: 409, nothing changed.
    expect((await me.put('/api/me/gitIdentities', ['other@example.test'])).statusCode).toBe(409);
    expect((await as(other.headers).put('/api/me/gitIdentities', ['Bob Fixture'])).statusCode).toBe(409);
    expect((await me.get('/api/me/gitIdentities')).json().data).toEqual({ identities: ['BOB fixture'] });
    expect((await as(other.headers).get('/api/me/gitIdentities')).json().data).toEqual({ identities: [] });

    // The e-mail instead of the name: still robert's; every change audited on the user.
    expect((await me.put('/api/me/gitIdentities', ['Bob@Example.com'])).statusCode).toBe(200);
    expect((await mine(robert.headers)).map((i) => i.methodName)).toEqual(['legacyTotal']);
    const userLog = await t.call('GET', `/api/auditLogs?entity=user&entityId=${robert.id}&perPage=100&sortDesc=false`);
    const changes = (userLog.json().data.items as AuditLog[]).flatMap((e) =>
      e.changes.gitIdentities ? [[e.actorId, e.changes.gitIdentities.from, e.changes.gitIdentities.to]] : [],
    );
    expect(changes).toEqual([
      [robert.id, [], ['BOB fixture']],
      [robert.id, ['BOB fixture'], ['Bob@Example.com']],
    ]);

    // An administrator reads and edits anyone's list; a developer may not; an unknown account is 404.
    const admin = as(t.admin);
    expect((await admin.get(`/api/users/${robert.id}/gitIdentities`)).json().data).toEqual({
      identities: ['Bob@Example.com'],
    });
    expect((await admin.put(`/api/users/${robert.id}/gitIdentities`, [])).statusCode).toBe(200);
    expect(await mine(robert.headers)).toEqual([]);
    expect((await as(other.headers).put(`/api/users/${robert.id}/gitIdentities`, ['x'])).statusCode).toBe(403);
    expect((await admin.get('/api/users/00000000-0000-0000-0000-000000000000/gitIdentities')).statusCode).toBe(404);
  });
});
