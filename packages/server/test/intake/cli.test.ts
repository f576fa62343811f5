import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { runCli } from '@sextant/cli';
import { buildShop, jacocoToolsMissing, startShop } from '@sextant/cli/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../tools/test-support/machine.ts';
import { FIXTURES, useIntakeApp } from './support.ts';

const noJacoco = skipWithout('sextant agent --jacoco against a running server', jacocoToolsMissing);

function cli(cwd: string, signal?: AbortSignal) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { cwd, stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), colour: false, signal };
  return { io, out, err, stdout: () => out.join(''), stderr: () => err.join('') };
}

/** A round that runs JaCoCo's Ant report (a JVM start) takes seconds, many more on a loaded machine. */
const ANT_ROUND_MS = 90_000;

async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('sextant upload and sextant agent against a running server', () => {
  const t = useIntakeApp();
  let server = '';
  const work = mkdtempSync(join(tmpdir(), 'sx-cli-'));
  const jacoco = join(FIXTURES, 'jacoco/jacoco.xml');
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const uploads = async () =>
    (await t.db.execute(sql`select * from coverage_uploads where app_id = ${t.checkout.id} order by created_at`)).rows;
  const common = () => ['--server', server, '--token', t.checkout.token, '--app', 'checkout'];

  it('uploads each file, gzipped on the way unless it already is, and prints the answers', async () => {
    const lcovGz = join(work, 'lcov.info.gz');
    writeFileSync(lcovGz, gzipSync(readFileSync(join(FIXTURES, 'js/lcov.info'))));
    const run = cli(work);
    const args = ['upload', jacoco, 'lcov.info.gz', ...common(), '--commit', 'abc123', '--env', 'test'];
    const code = await runCli([...args, '--test-type', '2', '--case', 'C-1'], run.io);
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
    const lines = run.stdout().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${jacoco}: upload [0-9a-f-]{36}, jacoco, \\d+ files$`));
    expect(lines[1]).toMatch(/^lcov\.info\.gz: upload [0-9a-f-]{36}, lcov, \d+ files$/);
    const rows = await uploads();
    expect(rows.map((r) => [r.format, r.commit, r.case_id, r.test_type])).toEqual([
      ['jacoco', 'abc123', 'C-1', 2],
      ['lcov', 'abc123', 'C-1', 2],
    ]);
    const stored = (row: Record<string, unknown>) => readFileSync(join(t.dataDir, String(row.stored_path)));
    expect(gunzipSync(stored(rows[0] as Record<string, unknown>)).equals(readFileSync(jacoco))).toBe(true);
    expect(stored(rows[1] as Record<string, unknown>).equals(readFileSync(lcovGz))).toBe(true);
  });

  it('exits 1 with one line naming the file and the reason', async () => {
    const before = (await uploads()).length;
    const broken = join(work, 'broken.xml');
    writeFileSync(broken, '<report name="x"><package name="p"></report>');
    const cases = [
      { args: ['upload', jacoco, ...common(), '--commit', 'c', '--env', 'test', '--test-type', '2'], token: 'wrong' },
      { args: ['upload', 'broken.xml', ...common(), '--commit', 'c', '--env', 'test', '--test-type', '2'] },
      {
        args: ['upload', join(work, 'missing.xml'), ...common(), '--commit', 'c', '--env', 'test', '--test-type', '1'],
      },
      { args: ['upload', jacoco, ...common(), '--commit', 'c', '--env', 'test', '--test-type', '3'] },
    ];
    const messages: string[] = [];
    for (const c of cases) {
      const run = cli(work);
      const args = c.token ? c.args.map((a) => (a === t.checkout.token ? c.token : a)) : c.args;
      expect(await runCli(args, run.io)).toBe(1);
      messages.push(run.stderr().split('\n')[0] as string);
    }
    expect(messages[0]).toBe(
      `sextant upload: ${jacoco}: the server answered 401: The token is neither an ingestion token nor a valid access token.`,
    );
    expect(messages[1]).toBe(
      'sextant upload: broken.xml: the server answered 400: The coverage file was refused: upload at line 1:36: closing </report> does not match <package> (malformed-xml)',
    );
    expect(messages[2]).toMatch(/^sextant upload: .*missing\.xml: .*ENOENT/);
    expect(messages[3]).toBe('sextant upload: --test-type is 1 (unit/dev) or 2 (functional/test)');
    expect((await uploads()).length).toBe(before);

    const offline = cli(work);
    const gone = ['upload', jacoco, '--server', 'http://127.0.0.1:9', '--token', 'x', '--app', 'a', '--commit', 'c'];
    expect(await runCli([...gone, '--env', 'test', '--test-type', '1'], offline.io)).toBe(1);
    expect(offline.stderr()).toMatch(
      /^sextant upload: .*jacoco\.xml: cannot reach http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)\n$/,
    );
  });

  it('agent --once sends the watched files, then a heart-beat saying so', async () => {
    const dir = join(work, 'agent-once');
    mkdirSync(join(dir, 'target/site'), { recursive: true });
    copyFileSync(jacoco, join(dir, 'target/site/jacoco.xml'));
    copyFileSync(join(FIXTURES, 'js/coverage-final.json'), join(dir, 'target/coverage-final.json'));
    writeFileSync(join(dir, 'target/notes.txt'), 'not coverage');
    const before = (await uploads()).length;
    const run = cli(dir);
    const args = ['agent', ...common(), '--env', 'test', '--agent-id', 'qa-1', '--commit', 'v2', '--once'];
    const code = await runCli([...args, '--watch', 'target/**/*.xml', '--watch', 'target/*.json'], run.io);
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
    const rows = (await uploads()).slice(before);
    expect(rows.map((r) => [r.format, r.agent_id, r.commit, r.test_type])).toEqual([
      ['istanbul', 'qa-1', 'v2', 2],
      ['jacoco', 'qa-1', 'v2', 2],
    ]);
    const agents = await t.call('GET', `/api/apps/${t.checkout.id}/agents`);
    expect(agents.json().data).toMatchObject([
      { agentId: 'qa-1', envType: 'test', ip: '127.0.0.1', lastStatus: 'HEART_BEAT_DONE', lastError: null },
    ]);
    expect(agents.json().data[0].version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('agent reports HEART_BEAT_ERROR with the reason when an upload fails', async () => {
    const dir = join(work, 'agent-error');
    mkdirSync(dir);
    writeFileSync(join(dir, 'jacoco.xml'), '<report name="x"><package name="p"></report>');
    const run = cli(dir);
    const code = await runCli(
      ['agent', ...common(), '--env', 'staging', '--agent-id', 'qa-2', '--commit', 'v2', '--watch', '*.xml', '--once'],
      run.io,
    );
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/^sextant agent: jacoco\.xml: the server answered 400: .*\(malformed-xml\)\n$/);
    const [agent] = (await t.db.execute(sql`select * from coverage_agents where agent_id = 'qa-2'`)).rows;
    expect(agent).toMatchObject({ last_status: 'HEART_BEAT_ERROR', env_type: 'staging' });
    expect(agent?.last_error).toMatch(/^jacoco\.xml: the server answered 400: .*\(malformed-xml\)$/);
  });

  it('agent loops: sends a file again only when it changes, and stops cleanly when told', async () => {
    const dir = join(work, 'agent-loop');
    mkdirSync(dir);
    const report = join(dir, 'lcov.info');
    copyFileSync(join(FIXTURES, 'js/lcov.info'), report);
    const before = (await uploads()).length;
    const beats = async () =>
      Number((await t.db.execute(sql`select count(*) as n from messages where agent_id = 'qa-loop'`)).rows[0]?.n);
    const stop = new AbortController();
    const run = cli(dir, stop.signal);
    const args = ['agent', ...common(), '--env', 'test', '--agent-id', 'qa-loop', '--commit', 'v3'];
    const running = runCli([...args, '--watch', '*.info', '--interval', '200ms'], run.io);
    await until('the first upload', async () => (await uploads()).length === before + 1);
    await until('two more heart-beats', async () => (await beats()) >= 3);
    expect((await uploads()).length).toBe(before + 1);
    const later = new Date(Date.now() + 5000);
    utimesSync(report, later, later);
    await until('the changed file sent again', async () => (await uploads()).length === before + 2);
    stop.abort();
    expect(await running).toBe(0);
    expect(run.stdout()).toMatch(/qa-loop: stopped\n$/);
    expect(run.stderr()).toBe('');
  });
  it.skipIf(noJacoco)(
    'agent --jacoco --jacoco-convert local dumps a running JaCoCo agent and sends its XML when the coverage grew',
    async () => {
      const dir = join(work, 'agent-jacoco');
      mkdirSync(dir);
      const jvm = await startShop(buildShop(dir), 3);
      const before = (await uploads()).length;
      const beats = async () =>
        Number((await t.db.execute(sql`select count(*) as n from messages where agent_id = 'qa-jvm'`)).rows[0]?.n);
      const stop = new AbortController();
      const run = cli(dir, stop.signal);
      try {
        const args = ['agent', ...common(), '--env', 'test', '--agent-id', 'qa-jvm', '--commit', 'v4'];
        // Converted here (the local fallback); the server's exact merge is in reports/exec-reports.test.ts.
        const jacocoArgs = [
          '--jacoco',
          `127.0.0.1:${jvm.port}`,
          '--classes',
          join(dir, 'classes'),
          '--jacoco-convert',
          'local',
        ];
        const running = runCli([...args, ...jacocoArgs, '--interval', '200ms'], run.io);
        await until('the first dump sent', async () => (await uploads()).length === before + 1, ANT_ROUND_MS);
        const beatsThen = await beats();
        await until('two more heart-beats', async () => (await beats()) >= beatsThen + 2, ANT_ROUND_MS);
        expect((await uploads()).length).toBe(before + 1);
        await jvm.price(12);
        await until('the grown coverage sent', async () => (await uploads()).length === before + 2, ANT_ROUND_MS);
        stop.abort();
        expect(await running).toBe(0);
        expect(run.stderr()).toBe('');
        expect(run.stdout()).toMatch(
          /JaCoCo agent 127\.0\.0\.1:\d+ \(2 classes\): upload [0-9a-f-]{36}, jacoco, \d+ files/,
        );
        const rows = (await uploads()).slice(before);
        expect(rows.map((r) => [r.format, r.agent_id, r.commit])).toEqual([
          ['jacoco', 'qa-jvm', 'v4'],
          ['jacoco', 'qa-jvm', 'v4'],
        ]);
        const stored = (row: Record<string, unknown> | undefined) =>
          gunzipSync(readFileSync(join(t.dataDir, String(row?.stored_path)))).toString();
        const price =
          /<method name="price" desc="\(I\)I" line="5">.*?<counter type="BRANCH" missed="(\d)" covered="(\d)"\/>/;
        expect(price.exec(stored(rows[0]))?.slice(1)).toEqual(['1', '1']);
        expect(price.exec(stored(rows[1]))?.slice(1)).toEqual(['0', '2']);
      } finally {
        stop.abort();
        await jvm.stop();
      }
    },
    4 * ANT_ROUND_MS,
  );
});
