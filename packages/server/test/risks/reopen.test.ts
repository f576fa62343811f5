import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RiskHistoryEntry, RiskItem, RiskTreemap } from '@sextant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUpload, fixtureRepo, useReportsApp, waitForReport } from '../reports/pipeline-support.ts';

/**
 * An accepted risk stays accepted until its method's code changes again (issue 34): reports of the
 * version `main` of the JaCoCo fixture project, before and after a commit that edits one accepted method.
 */
describe('accepted risks when their code changes', () => {
  const t = useReportsApp();
  let repo: string;
  beforeAll(() => {
    repo = fixtureRepo('jacoco');
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.test', ...args])
      .toString()
      .trim();
  const items = async (appId: string) => {
    const res = await t.call('GET', `/api/risks?perPage=200&appId=${appId}`);
    expect(res.statusCode, res.body).toBe(200);
    return new Map((res.json().data.items as RiskItem[]).map((i) => [i.id, i]));
  };
  const reportOf = async (appId: string, name: string) => {
    await addUpload(t.db, t.dataDir, {
      appId,
      commit: git('rev-parse', 'HEAD'),
      envType: 'test',
      testType: 2,
      fixture: 'jacoco/jacoco-main.xml',
      format: 'jacoco',
    });
    const created = await t.ok<{ id: string }>('POST', '/api/reports', {
      app: 'reopening',
      name,
      baseVersion: 'base',
      newVersion: 'main',
      envType: 'test',
      testType: 2,
      coverageType: 'incremental',
    });
    const done = await waitForReport(t.db, created.id);
    expect(done.status, done.errMsg ?? '').toBe('SUCCESS');
    return created.id;
  };
  /** Changes a string in Report.describe without moving a line: the same lines, another body. */
  const editDescribe = () => {
    const file = join(repo, 'src/main/java/demo/Report.java');
    const before = readFileSync(file, 'utf8');
    const after = before.replace('return "no data";', 'return "nothing yet";');
    expect(after).not.toBe(before);
    writeFileSync(file, after);
    git('commit', '--quiet', '-am', 'Report: say nothing yet');
  };

  it('reopens an accepted item whose method changed; keeps one whose method did not', async () => {
    const appId = await t.createApp({ name: 'reopening', repoUrl: repo });
    await t.ok('PATCH', '/api/settings', { showJudgment: true });
    await reportOf(appId, 'first');
    const opened = [...(await items(appId)).values()];
    const edited = opened.find((i) => i.filePath.endsWith('Report.java') && i.methodName === 'describe');
    const untouched = opened.find((i) => !i.filePath.endsWith('Report.java'));
    if (!edited || !untouched) throw new Error(`no describe or no other item in ${opened.length} items`);
    for (const item of [edited, untouched]) {
      const res = await t.call('POST', `/api/risks/${item.id}/judgment`, { judgment: 'accepted', reason: 'known gap' });
      expect(res.statusCode, res.body).toBe(200);
    }

    // A report of the same commit: nothing changed, both stay accepted.
    await reportOf(appId, 'same commit');
    let now = await items(appId);
    for (const item of [edited, untouched]) {
      expect(now.get(item.id)).toMatchObject({ state: 'judged', judgment: 'accepted', reason: 'known gap' });
    }

    editDescribe();
    const changed = await reportOf(appId, 'after the edit');
    now = await items(appId);
    expect(now.size).toBe(opened.length);
    expect(now.get(edited.id)).toMatchObject({
      state: 'observing',
      judgment: null,
      reason: null,
      reportId: changed,
      lineCovered: 0,
    });
    expect(now.get(untouched.id)).toMatchObject({
      state: 'judged',
      judgment: 'accepted',
      reason: 'known gap',
      reportId: changed,
    });
    const history = async (id: string) =>
      (await t.ok<RiskHistoryEntry[]>('GET', `/api/risks/${id}/history`)).map((h) => [
        h.fromState,
        h.toState,
        h.reportId,
      ]);
    expect(await history(edited.id)).toEqual([
      [null, 'observing', edited.reportId],
      ['observing', 'judged', null],
      ['judged', 'observing', changed],
    ]);
    expect(await history(untouched.id)).toEqual([
      [null, 'observing', untouched.reportId],
      ['observing', 'judged', null],
    ]);
    await t.ok('PATCH', '/api/settings', { showJudgment: false });

    // The home screen's treemap: the changed methods of the version's latest report, by changed lines.
    const map = await t.ok<RiskTreemap>('GET', `/api/risks/treemap?appId=${appId}&version=main`);
    expect(map.reportId).toBe(changed);
    const describe = map.methods.find((m) => m.filePath.endsWith('Report.java') && m.name.startsWith('describe'));
    expect(describe).toMatchObject({ status: 'new-uncovered', lineCovered: 0 });
    expect(describe?.changedLines).toBeGreaterThan(0);
    // clamp was modified (not added) and runs at the grade; the fixture has no modified uncovered method.
    expect(map.methods.find((m) => m.name.startsWith('clamp'))).toMatchObject({ status: 'covered' });
    for (const m of map.methods.filter((x) => x.status === 'covered')) {
      expect(m.lineCovered / m.lineTotal).toBeGreaterThanOrEqual(0.6);
    }
    const none = await t.ok<RiskTreemap>('GET', `/api/risks/treemap?appId=${appId}&version=v9`);
    expect(none).toEqual({ reportId: null, methods: [] });
  });
});
