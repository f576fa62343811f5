import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportFiles } from '../../src/db/schema/index.ts';
import { mirrorDir } from '../../src/lib/data-paths.ts';
import { git } from '../admin/git-fixture.ts';
import { useReportViews } from './support.ts';

const CART = [
  'package shop;',
  '',
  'class Cart {',
  '  int add(int x) {',
  '    return x + 1; // <b>not markup</b>',
  '  }',
  '}',
];

/** A work tree with one commit, mirrored bare where the pipeline would leave it. */
function mirroredRepo(dataDir: string, appId: string, files: Record<string, string>): string {
  const work = mkdtempSync(join(tmpdir(), 'sx-source-'));
  git(work, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  git(work, 'add', '.');
  git(work, 'commit', '-q', '-m', 'sources');
  const commit = git(work, 'rev-parse', 'HEAD').trim();
  execFileSync('git', ['clone', '-q', '--bare', work, mirrorDir(dataDir, appId)]);
  rmSync(work, { recursive: true, force: true });
  return commit;
}

describe('file tree and source view of a report', () => {
  const t = useReportViews();
  let reportId = '';
  let unresolvedId = '';
  let unmirroredId = '';
  const source = (id: string, path: string, headers = t.admin) =>
    t.get(`/api/reports/${id}/source?path=${encodeURIComponent(path)}`, headers);

  beforeAll(async () => {
    const { appId } = await t.createApp('Shop', 'checkout');
    const commit = mirroredRepo(t.dataDir, appId, {
      'src/shop/Cart.java': `${CART.join('\n')}\n`,
      'src/shop/Huge.java': 'x'.repeat(2 * 1024 * 1024 + 10),
      'secret.txt': 'not part of any report',
    });
    reportId = await t.insertReport({ appId, newCommit: commit });
    unresolvedId = await t.insertReport({ appId, newCommit: null, status: 'QUEUED' });
    const file = (id: string, path: string, extra: Partial<typeof reportFiles.$inferInsert> = {}) =>
      t.db.insert(reportFiles).values({
        reportId: id,
        path,
        language: 'java',
        lineCovered: 1,
        lineTotal: 2,
        branchCovered: 1,
        branchTotal: 4,
        lineNumbers: [4, 5],
        lineHits: [3, 0],
        branchesCovered: [1, 0],
        branchesTotal: [4, 0],
        changedLines: [5],
        ...extra,
      });
    await file(reportId, 'src/shop/Huge.java', { changed: false, changedLines: [] });
    await file(reportId, 'src/shop/Cart.java', { changed: true, diffLineCovered: 0, diffLineTotal: 1 });
    await file(reportId, 'src/shop/Gone.java');
    await file(unresolvedId, 'src/shop/Cart.java');
    const classId = await t.insertDetail({ reportId, name: 'shop/Cart', filePath: 'src/shop/Cart.java' });
    await t.insertDetail({
      reportId,
      classId: Number(classId),
      name: 'add(I)I',
      startLine: 4,
      endLine: 6,
      lineCovered: 1,
      lineTotal: 2,
      branchCovered: 1,
      branchTotal: 4,
      changed: true,
    });
    const other = await t.createApp('Shop', 'no-mirror');
    unmirroredId = await t.insertReport({ appId: other.appId, newCommit: commit });
    await file(unmirroredId, 'src/shop/Cart.java');
  });

  it('lists the report’s files by path with their figures', async () => {
    const files = await t.ok<{ path: string }[]>('GET', `/api/reports/${reportId}/files`);
    expect(files.map((f) => f.path)).toEqual(['src/shop/Cart.java', 'src/shop/Gone.java', 'src/shop/Huge.java']);
    expect(files[0]).toEqual({
      path: 'src/shop/Cart.java',
      language: 'java',
      lineCovered: 1,
      lineTotal: 2,
      branchCovered: 1,
      branchTotal: 4,
      changed: true,
      diffLineCovered: 0,
      diffLineTotal: 1,
      // not a monorepo: no package folder
      package: null,
    });
  });

  it('shows the file at the report’s commit with marks, changed lines and method figures', async () => {
    const res = await source(reportId, 'src/shop/Cart.java');
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json().data;
    expect(view.lines).toEqual(CART);
    expect(view.marks).toEqual([
      { line: 4, hits: 3, branchesCovered: 1, branchesTotal: 4 },
      { line: 5, hits: 0, branchesCovered: 0, branchesTotal: 0 },
    ]);
    expect(view.changedLines).toEqual([5]);
    expect(view.methods).toEqual([
      {
        name: 'add(I)I',
        className: 'shop/Cart',
        startLine: 4,
        endLine: 6,
        lineCoverage: 0.5,
        branchCoverage: 0.25,
        changed: true,
      },
    ]);
  });

  it('never reads a path the report does not hold, even one in the repository', async () => {
    for (const path of ['secret.txt', '../secret.txt', 'src/shop/../../secret.txt', '--output=/tmp/x', 'HEAD']) {
      const res = await source(reportId, path);
      expect([path, res.statusCode, res.json().data?.error]).toEqual([path, 404, 'not-found']);
    }
  });

  it('answers clear errors: too large, missing from the commit, no commit yet, no mirror, unknown report', async () => {
    const huge = await source(reportId, 'src/shop/Huge.java');
    expect([huge.statusCode, huge.json().data.error]).toEqual([413, 'payload-too-large']);
    expect(huge.json().message).toMatch(/2\.0 MB.*up to 2 MB/);
    const gone = await source(reportId, 'src/shop/Gone.java');
    expect([gone.statusCode, gone.json().message]).toEqual([404, expect.stringMatching(/not in the mirror/)]);
    expect((await source(unresolvedId, 'src/shop/Cart.java')).statusCode).toBe(409);
    const noMirror = await source(unmirroredId, 'src/shop/Cart.java');
    expect([noMirror.statusCode, noMirror.json().message]).toEqual([404, expect.stringMatching(/mirror is missing/)]);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await source(id, 'src/shop/Cart.java')).statusCode).toBe(404);
      expect((await t.get(`/api/reports/${id}/files`)).statusCode).toBe(404);
    }
  });

  it('needs read on Report', async () => {
    expect((await source(reportId, 'src/shop/Cart.java', {})).statusCode).toBe(401);
    expect((await source(reportId, 'src/shop/Cart.java', t.client)).statusCode).toBe(403);
    expect((await t.get(`/api/reports/${reportId}/files`, t.client)).statusCode).toBe(403);
  });
});
