import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@sextant/cli';
import { jacocoToolsMissing, startShop } from '@sextant/cli/testing';
import { COUNTER_KINDS, type Coverage, jacocoClassId } from '@sextant/coverage';
import { readCoverageFile } from '@sextant/coverage/node';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../tools/test-support/machine.ts';
import { zipOf } from '../../../../tools/test-support/zip.ts';
import { coverageUploads, messages, reportDetails, type reports } from '../../src/db/schema/index.ts';
import type { UploadStorage } from '../../src/modules/intake/upload-store.ts';
import { storedUploadsOf } from '../intake/support.ts';
import { classBlobCount, jacocoReport, registerShop } from './exec-support.ts';
import { useReportsApp, waitForReport } from './pipeline-support.ts';

const noJacoco = skipWithout('JaCoCo exec uploads turned into JaCoCo’s report on the server', jacocoToolsMissing);

type Row = typeof reportDetails.$inferSelect | typeof reports.$inferSelect;
const countersOf = (row: Row) =>
  Object.fromEntries(
    COUNTER_KINDS.map((kind) => {
      const r = row as unknown as Record<string, number | null>;
      const covered = r[`${kind}Covered`] ?? null;
      const total = r[`${kind}Total`] ?? null;
      return [kind, covered === null || total === null ? null : { covered, missed: total - covered }];
    }),
  );
const exactness = (row: Row) =>
  COUNTER_KINDS.map((kind) => (row as unknown as Record<string, number | null>)[`${kind}CoveredAtMost`] ?? null);

// Uploads and class files kept on disk or in PostgreSQL (ADR 0006): the same figures either way.
describe.skipIf(noJacoco).each<UploadStorage>(['file', 'database'])(
  'exact merges of JaCoCo execution data on the server (issue 38), %s storage',
  (storage) => {
    const t = useReportsApp({ uploadStorage: storage });
    const dir = mkdtempSync(join(tmpdir(), 'sx-exec-reports-'));
    let server = '';
    let token = '';
    let shop: { classes: string; agent: string };
    let sha = '';
    let repo = '';
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      ({ shop, sha, repo, token } = await registerShop(t, dir, ['test', 'staging', 'dev']));
    }, 120_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const cli = async (args: string[]) => {
      const out: string[] = [];
      const io = { cwd: dir, stdout: (s: string) => out.push(s), stderr: (s: string) => out.push(s), colour: false };
      const code = await runCli([...args, '--server', server, '--token', token, '--app', 'shop'], io);
      return { code, out: out.join('') };
    };
    const report = async (name: string, envType: string, commit = sha) => {
      const created = await t.ok<{ id: string }>('POST', '/api/reports', {
        app: 'shop',
        name,
        baseVersion: commit,
        newVersion: commit,
        envType,
        testType: 2,
        coverageType: 'full',
      });
      return waitForReport(t.db, created.id);
    };
    const execUploads = async (envType: string) =>
      Promise.all(
        (
          await t.db
            .select()
            .from(coverageUploads)
            .where(and(eq(coverageUploads.envType, envType), eq(coverageUploads.format, 'jacoco-exec')))
            .orderBy(asc(coverageUploads.createdAt))
        ).map(async (row) => {
          // Wherever the intake kept it (a file, or PostgreSQL's chunks under test:pg), gunzipped.
          const path = join(dir, `${row.id}.exec`);
          writeFileSync(path, await storedUploadsOf(t.db, t.dataDir, row.storage).bytes(row, { maxBytes: 1 << 30 }));
          return path;
        }),
      );

    /** The report's figures, its class rows and its method rows beside JaCoCo's own report over the same exec files. */
    async function expectJacocosFigures(reportRow: typeof reports.$inferSelect, reference: Coverage) {
      // Side by side for the record (issue 38's note): the report's counters, then JaCoCo's own.
      const ours = countersOf(reportRow);
      const shown = (c: { covered: number; missed: number } | null | undefined) =>
        c ? `${c.covered}/${c.covered + c.missed}` : '—';
      console.log(
        `${reportRow.name}: ${COUNTER_KINDS.map((k) => `${k} ours ${shown(ours[k])} JaCoCo ${shown(reference.counters[k])}`).join('; ')}`,
      );
      expect(countersOf(reportRow)).toEqual(
        Object.fromEntries(COUNTER_KINDS.map((kind) => [kind, reference.counters[kind] ?? null])),
      );
      expect(exactness(reportRow)).toEqual(COUNTER_KINDS.map(() => null));
      const rows = await t.db.select().from(reportDetails).where(eq(reportDetails.reportId, reportRow.id));
      const classes = reference.files.flatMap((file) => file.classes);
      const classRows = rows.filter((row) => row.classId === null);
      expect(Object.fromEntries(classRows.map((row) => [row.name, countersOf(row)]))).toEqual(
        Object.fromEntries(classes.map((cls) => [cls.name, { ...cls.counters }])),
      );
      const methodRows = rows.filter((row) => row.classId !== null);
      const methods = classes.flatMap((cls) => cls.methods);
      expect(methodRows.map((row) => countersOf(row)).sort(byJson)).toEqual(
        methods.map((m) => Object.fromEntries(COUNTER_KINDS.map((k) => [k, m.counters[k] ?? null]))).sort(byJson),
      );
      expect(methodRows).toHaveLength(methods.length);
    }
    const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

    it('two JVMs dumped by sextant agent: the exec-merged report is JaCoCo’s own over both exec files', async () => {
      // One JVM prices 5, the other 20: each takes one branch of `if (n > 10)`, the line they share.
      const jvms = [await startShop(shop, 5), await startShop(shop, 20)];
      try {
        for (const [i, jvm] of jvms.entries()) {
          const { code, out } = await cli([
            'agent',
            '--env',
            'test',
            '--agent-id',
            `qa-${i}`,
            '--commit',
            sha,
            '--jacoco',
            `127.0.0.1:${jvm.port}`,
            '--classes',
            shop.classes,
            '--once',
          ]);
          expect(code, out).toBe(0);
          expect(out).toMatch(/class files of [0-9a-f]{40}: 2 recorded\n/);
          expect(out).toMatch(
            /JaCoCo agent 127\.0\.0\.1:\d+ \(2 classes\): upload [0-9a-f-]{36}, jacoco-exec, 2 files/,
          );
        }
      } finally {
        await Promise.all(jvms.map((jvm) => jvm.stop()));
      }
      // The class files were stored once, by content.
      expect(await classBlobCount(t.db, t.dataDir, storage)).toBe(2);

      const row = await report('exec merge', 'test');
      expect(row.status, row.errMsg ?? '').toBe('SUCCESS');
      const reference = await readCoverageFile(jacocoReport(dir, await execUploads('test'), shop.classes), {
        format: 'jacoco',
      });
      await expectJacocosFigures(row, reference);
      // Each JVM took one branch of price's line: merged by probes both are covered, where the XML
      // merge can only say "1–2 of 2".
      const price = reference.files.flatMap((f) => f.classes.flatMap((c) => c.methods)).find((m) => m.name === 'price');
      expect(price?.counters.branch).toEqual({ covered: 2, missed: 0 });
      const steps = await t.db.select().from(messages).where(eq(messages.reportId, row.id));
      expect(steps.find((m) => m.status === 'ENV_REPORT')?.text).toMatch(
        /2 JaCoCo exec uploads merged probe by probe \(\d+ classes with data\) and reported by JaCoCo over 2 stored class files: exact counters/,
      );
    }, 180_000);

    it('two exec files uploaded with sextant upload --classes give JaCoCo’s figures too', async () => {
      const execs = ['run-a', 'run-b'].map((name, i) => {
        const exec = join(dir, `${name}.exec`);
        execFileSync(
          'java',
          [`-javaagent:${shop.agent}=destfile=${exec}`, '-cp', shop.classes, 'demo.Main', String([3, 12][i])],
          {
            input: '',
          },
        );
        return exec;
      });
      const { code, out } = await cli([
        'upload',
        ...execs,
        '--commit',
        sha,
        '--env',
        'staging',
        '--test-type',
        '2',
        '--classes',
        shop.classes,
      ]);
      expect(code, out).toBe(0);
      expect(out).toMatch(/class files of [0-9a-f]{40}: 2 recorded\n/);
      const row = await report('uploaded exec files', 'staging');
      expect(row.status, row.errMsg ?? '').toBe('SUCCESS');
      await expectJacocosFigures(
        row,
        await readCoverageFile(jacocoReport(dir, execs, shop.classes), { format: 'jacoco' }),
      );
    }, 180_000);

    it('refuses exec data of another build of a class: at the upload storing nothing, in the report naming it', async () => {
      // The same Shop compiled without debug information: another class file, another class id.
      const other = join(dir, 'other-build');
      execFileSync('javac', [
        '--release',
        '11',
        '-g:none',
        '-d',
        other,
        join(dir, 'src/demo/Shop.java'),
        join(dir, 'src/demo/Main.java'),
      ]);
      const exec = join(dir, 'other.exec');
      execFileSync('java', [`-javaagent:${shop.agent}=destfile=${exec}`, '-cp', other, 'demo.Main', '4'], {
        input: '',
      });
      expect(jacocoClassId(readFileSync(join(other, 'demo/Shop.class')))).not.toBe(
        jacocoClassId(readFileSync(join(shop.classes, 'demo/Shop.class'))),
      );
      const before = await t.db.select().from(coverageUploads);
      const files = () => readdirSync(join(t.dataDir, 'uploads'), { recursive: true }).length;
      const filesBefore = files();
      const { code, out } = await cli(['upload', exec, '--commit', sha, '--env', 'test', '--test-type', '2']);
      expect(code).toBe(1);
      expect(out).toMatch(
        /the server answered 400: The coverage file was refused: .*demo\/(Shop|Main) has class id [0-9a-f]{16} in the execution data but [0-9a-f]{16} in the class files stored for the commit.*\(incompatible-exec-data\)/,
      );
      expect(await t.db.select().from(coverageUploads)).toHaveLength(before.length);
      expect(files()).toBe(filesBefore);

      // Sent before any class files of its commit, it is kept; the report over that commit refuses it.
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd: repo })
          .toString()
          .trim();
      writeFileSync(join(repo, 'README.md'), 'the shop\n');
      git('add', '.');
      git('commit', '--quiet', '-m', 'readme');
      const next = git('rev-parse', 'HEAD');
      const early = await cli(['upload', exec, '--commit', next, '--env', 'dev', '--test-type', '2']);
      expect(early.code, early.out).toBe(0);
      const late = await cli([
        'upload',
        '--classes',
        shop.classes,
        exec,
        '--commit',
        next,
        '--env',
        'dev',
        '--test-type',
        '2',
      ]);
      expect(late.code).toBe(1);
      const row = await report('another build', 'dev', next);
      expect(row.status).toBe('ENVREPORT_FAIL');
      expect(row.errMsg).toMatch(
        new RegExp(
          `^the exec upload [0-9a-f-]{36} does not match the class files of ${next}: demo/(Shop|Main) has class id [0-9a-f]{16} in the execution data but [0-9a-f]{16} in the class files stored for the commit \\(and 1 more class\\(es\\)\\): the data comes from another build$`,
        ),
      );
    }, 180_000);

    it('turns away hostile class archives clearly and stores nothing of them', async () => {
      const post = (body: Buffer) =>
        t.app.inject({
          method: 'POST',
          url: '/api/coverage/class-files?app=shop',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
          payload: body,
        });
      const tar = (name: string, type = '0', content = Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 55, 0, 1])) => {
        const header = Buffer.alloc(512);
        header.write(name, 0);
        header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
        header.write(type, 156, 'latin1');
        header.write('ustar\u000000', 257, 'latin1');
        return Buffer.concat([header, content, Buffer.alloc((512 - (content.length % 512)) % 512), Buffer.alloc(1024)]);
      };
      const blobsBefore = await classBlobCount(t.db, t.dataDir, storage);
      const traversal = await post(tar('../../evil/Shop.class'));
      expect([traversal.statusCode, traversal.json().message]).toEqual([
        400,
        `Class files refused: the archive entry "../../evil/Shop.class" leaves the archive's folder.`,
      ]);
      const link = await post(tar('demo/Link.class', '2'));
      expect(link.statusCode).toBe(400);
      expect(link.json().message).toMatch(/has type "2": only plain files and folders are read/);
      const notClass = await post(tar('demo/Fake.class', '0', Buffer.from('not a class file')));
      expect(notClass.json().message).toMatch(/demo\/Fake\.class is not a class file/);
      const junk = await post(Buffer.from('hello'));
      expect([junk.statusCode, junk.json().message]).toEqual([
        400,
        'Class files refused: the class files come as a zip (jar) or a tar.',
      ]);
      // A zip bomb: 64 MB of zeros in 64 KB, declaring its size, then lying about it (inflation stops at the bound).
      const zeros = Buffer.alloc(64 << 20);
      for (const declared of [zeros.length, 10]) {
        const bomb = await post(zipOf([{ name: 'demo/Bomb.class', data: zeros, declared }]));
        expect([bomb.statusCode, bomb.json().message]).toEqual([
          413,
          `Class files refused: the archive entry demo/Bomb.class is larger than ${16 << 20} bytes.`,
        ]);
      }
      const zipTraversal = await post(zipOf([{ name: '/etc/cron.d/x.class', data: Buffer.from([0xca, 0xfe]) }]));
      expect(zipTraversal.json().message).toMatch(/the archive entry "\/etc\/cron\.d\/x\.class" is not a relative/);
      expect(await classBlobCount(t.db, t.dataDir, storage)).toBe(blobsBefore);
    });
  },
);
