import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@sextant/cli';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageUploads } from '../../src/db/schema/index.ts';
import { mirrorDir } from '../../src/lib/data-paths.ts';
import { mapUploads } from '../../src/modules/reports/pipeline/gather-coverage.ts';
import { bearer, storedUploadsOf, uploadQuery, useIntakeApp } from './support.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

/** Two packages with a file of the same name, and a report made in packages/a naming it relatively. */
function monorepo(root: string): { repo: string; head: string } {
  const repo = join(root, 'repo');
  for (const pkg of ['a', 'b']) {
    mkdirSync(join(repo, 'packages', pkg, 'src'), { recursive: true });
    writeFileSync(join(repo, 'packages', pkg, 'src/util.js'), `export const ${pkg} = 1;\nexport const two = 2;\n`);
  }
  writeFileSync(join(repo, 'packages/a/src/only-a.js'), 'export const only = 1;\n');
  git(root, 'init', '-q', '-b', 'main', repo);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'two packages');
  return { repo, head: git(repo, 'rev-parse', 'HEAD').trim() };
}

const LCOV = 'TN:\nSF:src/util.js\nDA:1,1\nDA:2,0\nend_of_record\nSF:src/only-a.js\nDA:1,1\nend_of_record\n';

describe("uploads made in a monorepo's package folder", () => {
  const t = useIntakeApp();
  const work = mkdtempSync(join(tmpdir(), 'sx-monorepo-'));
  const { repo, head } = monorepo(work);
  let server = '';
  beforeAll(async () => {
    execFileSync('git', ['clone', '-q', '--mirror', repo, mirrorDir(t.dataDir, t.invoices.id)]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const upload = (extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${uploadQuery({ app: 'invoices', commit: head, envType: 'ci', testType: 1, ...extra })}`,
      headers: { 'content-type': 'application/octet-stream', ...bearer(t.invoices.token) },
      payload: LCOV,
    });
  const rows = async () =>
    (
      await t.db.execute(
        sql`select id, base_dir, unmapped_files, stored_path from coverage_uploads where app_id = ${t.invoices.id} order by created_at`,
      )
    ).rows;

  it('maps relative paths inside the named folder, where without it they are ambiguous', async () => {
    const plain = await upload();
    expect(plain.statusCode, plain.body).toBe(201);
    // src/util.js ends two files of the commit; only-a.js is unique anyway.
    expect(plain.json().data.unmappedFiles).toEqual(['src/util.js']);

    const placed = await upload({ baseDir: 'packages/a/' });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().data.unmappedFiles).toEqual([]);
    const [first, second] = await rows();
    expect(first).toMatchObject({ base_dir: null, unmapped_files: ['src/util.js'] });
    expect(second).toMatchObject({ base_dir: 'packages/a', unmapped_files: [] });

    const listed = await t.call('GET', `/api/coverage/uploads?appId=${t.invoices.id}&perPage=10`);
    // Newest first.
    expect(listed.json().data.items.map((u: { baseDir: string | null }) => u.baseDir)).toEqual(['packages/a', null]);
  });

  it('refuses a folder outside the repository or in Windows form, keeping nothing', async () => {
    const before = await rows();
    const stored = t.storedFiles(t.invoices.id).length;
    for (const baseDir of ['../packages/a', '/packages/a', 'packages/./a', 'packages\\a', 'packages//a']) {
      const res = await upload({ baseDir });
      expect(res.statusCode, baseDir).toBe(400);
      expect(res.json().data.fields.baseDir, baseDir).toMatch(/relative to its top/);
    }
    expect(await rows()).toEqual(before);
    expect(t.storedFiles(t.invoices.id)).toHaveLength(stored);
  });

  it('has the report pipeline map each upload within its own folder', async () => {
    const uploads = await t.db
      .select()
      .from(coverageUploads)
      .where(eq(coverageUploads.appId, t.invoices.id))
      .orderBy(coverageUploads.createdAt);
    const mapped = await mapUploads({
      uploads,
      stored: storedUploadsOf(t.db, t.dataDir),
      mirror: mirrorDir(t.dataDir, t.invoices.id),
      newCommit: head,
    });
    expect(mapped.unmappedFiles).toEqual(['src/util.js']);
    expect(mapped.coverages.map((c) => c.files.map((f) => f.path).sort())).toEqual([
      ['packages/a/src/only-a.js'],
      ['packages/a/src/only-a.js', 'packages/a/src/util.js'],
    ]);
  });

  it("sends the working directory's folder from `sextant upload` and `sextant agent`, and none with --base-dir .", async () => {
    const report = join(repo, 'packages/a/lcov.info');
    writeFileSync(report, LCOV);
    const send = async (extra: string[]) => {
      const err: string[] = [];
      const io = {
        cwd: join(repo, 'packages/a'),
        stdout: () => undefined,
        stderr: (s: string) => err.push(s),
        colour: false,
      };
      const args = ['upload', 'lcov.info', '--server', server, '--token', t.invoices.token, '--app', 'invoices'];
      const code = await runCli([...args, '--commit', head, '--env', 'ci', '--test-type', '1', ...extra], io);
      expect(err.join('')).toBe('');
      expect(code).toBe(0);
      return (await rows()).at(-1);
    };
    expect(await send([])).toMatchObject({ base_dir: 'packages/a', unmapped_files: [] });
    expect(await send(['--base-dir', '.'])).toMatchObject({ base_dir: null, unmapped_files: ['src/util.js'] });
    expect(await send(['--base-dir', 'packages\\b'])).toMatchObject({ base_dir: 'packages/b' });

    // The agent, beside an app run from the package's checkout, sends the same folder.
    const agent = ['agent', '--server', server, '--token', t.invoices.token, '--app', 'invoices', '--env', 'ci'];
    const out: string[] = [];
    const io = {
      cwd: join(repo, 'packages/a'),
      stdout: (s: string) => out.push(s),
      stderr: (s: string) => out.push(s),
      colour: false,
    };
    expect(await runCli([...agent, '--watch', 'lcov.info', '--once'], io), out.join('')).toBe(0);
    expect((await rows()).at(-1)).toMatchObject({ base_dir: 'packages/a', unmapped_files: [] });
  });

  it('places a report uploaded from the top by the folder its file sits in, and its parents (issue 39)', async () => {
    mkdirSync(join(repo, 'packages/a/coverage'), { recursive: true });
    writeFileSync(join(repo, 'packages/a/coverage/lcov.info'), LCOV);
    const err: string[] = [];
    const io = { cwd: repo, stdout: () => undefined, stderr: (s: string) => err.push(s), colour: false };
    const args = ['upload', 'packages/a/coverage/lcov.info', '--server', server, '--token', t.invoices.token];
    const code = await runCli([...args, '--app', 'invoices', '--commit', head, '--env', 'ci', '--test-type', '1'], io);
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    const [row] = await t.db.select().from(coverageUploads).where(eq(coverageUploads.baseDir, 'packages/a/coverage'));
    expect(row).toMatchObject({ unmappedFiles: [] });
    const mapped = await mapUploads({
      uploads: [row as NonNullable<typeof row>],
      stored: storedUploadsOf(t.db, t.dataDir),
      mirror: mirrorDir(t.dataDir, t.invoices.id),
      newCommit: head,
    });
    expect(mapped.unmappedFiles).toEqual([]);
    expect(mapped.coverages[0]?.files.map((f) => f.path).sort()).toEqual([
      'packages/a/src/only-a.js',
      'packages/a/src/util.js',
    ]);
  });
});
