import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RiskItem } from '@sextant/api';
import { afterAll, describe, expect, it } from 'vitest';
import { addUpload, fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';
import { signIn } from '../support/build-test-app.ts';

/** Risks of real c8 and JaCoCo reports as their authors (blame's e-mail) and the constructors see them. */
describe('risk items, their authors and constructors', () => {
  const t = useReportsApp();
  const repos: string[] = [];
  afterAll(() => {
    for (const repo of repos) rmSync(dirname(repo), { recursive: true, force: true });
  });

  const appOn = async (fixtureTool: string, name: string, language: string, fixture: string, format: string) => {
    const repo = fixtureRepo(fixtureTool);
    repos.push(repo);
    const appId = await t.ok<{ id: string }>('POST', '/api/apps', {
      teamId: t.teamId,
      language,
      environments: ['test'],
      name,
      repoUrl: repo,
    });
    await addUpload(t.db, t.dataDir, {
      appId: appId.id,
      commit: 'head',
      envType: 'test',
      testType: 1,
      fixture,
      format,
    });
    return appId.id;
  };
  const runReport = async (app: string, name: string) => {
    const created = await t.ok<{ id: string }>('POST', '/api/reports', {
      app,
      name,
      baseVersion: 'base',
      newVersion: 'head',
      envType: 'test',
      testType: 1,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, created.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
    return created.id;
  };
  const items = async (appId: string, headers = t.admin) => {
    const res = await t.call('GET', `/api/risks?perPage=200&appId=${appId}`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.items as RiskItem[];
  };

  it('a c8 report: the uncovered changed function is one item, and its author is told once per report', async () => {
    const bob = await t.ok<{ id: string }>('POST', '/api/users', {
      username: 'bob',
      email: 'Bob@Example.com',
      role: 'developer',
      password: 'bob-password-1',
    });
    await t.ok('PATCH', `/api/teams/${t.teamId}`, { memberIds: [bob.id] });
    const bobHeaders = (await signIn(t.app, 'bob', 'bob-password-1')).headers;
    const appId = await appOn('js', 'shop', 'javascript', 'js/coverage-final.json', 'istanbul');
    await runReport('shop', 'c8 first');
    const first = await items(appId);
    expect(first.map((i) => [i.filePath, i.methodName, i.state])).toEqual([
      ['src/unused.js', 'legacyTotal', 'observing'],
    ]);
    expect(first[0]?.author).toMatch(/<bob@example\.com>$/);
    await runReport('shop', 'c8 second');
    expect((await items(appId)).map((i) => i.id)).toEqual(first.map((i) => i.id));

    const jacocoApp = await appOn('jacoco', 'calculator', 'java', 'jacoco/jacoco-main.xml', 'jacoco');
    await runReport('calculator', 'jacoco first');
    const bobs = (await items(jacocoApp)).filter((i) => i.author?.endsWith('<bob@example.com>'));
    expect(bobs.length).toBeGreaterThan(1);

    const notes = await t.call('GET', '/api/notifications?perPage=50', undefined, bobHeaders);
    const titles = notes.json().data.items.map((n: { title: string; text: string }) => n.text);
    // One for the c8 app's first report (the second opened nothing), one for the JaCoCo report's many methods.
    expect(titles.filter((text: string) => text.includes('shop head'))).toEqual([
      '1 changed method(s) of yours in shop head are below the passing grade.',
    ]);
    expect(titles.filter((text: string) => text.includes('calculator head'))).toEqual([
      `${bobs.length} changed method(s) of yours in calculator head are below the passing grade.`,
    ]);

    // The author may judge their own item (matched by e-mail, whatever its case), and only theirs.
    await t.ok('PATCH', '/api/settings', { showJudgment: true });
    const seen = await items(jacocoApp, bobHeaders);
    for (const item of seen) expect(item.mayJudge, item.author ?? '').toBe(item.author?.endsWith('<bob@example.com>'));
    await t.ok('PATCH', '/api/settings', { showJudgment: false });
  });

  it('a changed field initialiser gives one item per constructor, none without a signature', async () => {
    const appId = await appOn('jacoco-field-init', 'inventory', 'java', 'jacoco-field-init/jacoco.xml', 'jacoco');
    await runReport('inventory', 'first');
    const found = await items(appId);
    const constructors = found.filter((i) => i.methodName === '<init>');
    expect(constructors.length).toBeGreaterThan(0);
    expect(constructors.every((i) => i.signature !== null)).toBe(true);
    const keys = found.map((i) => `${i.filePath}|${i.methodName}|${i.signature}`);
    expect(new Set(keys).size).toBe(keys.length);
    await runReport('inventory', 'second');
    expect((await items(appId)).map((i) => i.id).sort()).toEqual(found.map((i) => i.id).sort());
  });
});
