import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jacocoToolsMissing } from '@sextant/cli/testing';
import { parseCoverage } from '@sextant/coverage';
import { classFilesAt, execToXml, writeClassTar } from '@sextant/coverage/node';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../tools/test-support/machine.ts';
import { messages } from '../../src/db/schema/index.ts';
import type { UploadStorage } from '../../src/modules/intake/upload-store.ts';
import { registerShop } from './exec-support.ts';
import { useReportsApp, waitForReport } from './pipeline-support.ts';

const noJacoco = skipWithout('a JaCoCo run to make exec data and XML for the fallback', jacocoToolsMissing);

/** A server without JaCoCo (SEXTANT_JACOCO_LIB an empty folder): exec uploads cannot become figures here. */
describe.skipIf(noJacoco).each<UploadStorage>(['file', 'database'])(
  'exec uploads on a server without JaCoCo (issue 38), %s storage',
  (storage) => {
    const noJars = mkdtempSync(join(tmpdir(), 'sx-no-jacoco-'));
    const t = useReportsApp({ jacocoLib: noJars, uploadStorage: storage });
    const dir = mkdtempSync(join(tmpdir(), 'sx-exec-fallback-'));
    let token = '';
    let sha = '';
    let exec: Buffer;
    let xml: Buffer;
    beforeAll(async () => {
      const registered = await registerShop(t, dir, ['test', 'staging']);
      const shop = registered.shop;
      ({ sha, token } = registered);
      const execPath = join(dir, 'run.exec');
      execFileSync('java', [`-javaagent:${shop.agent}=destfile=${execPath}`, '-cp', shop.classes, 'demo.Main', '12'], {
        input: '',
      });
      exec = readFileSync(execPath);
      const work = join(dir, 'xml');
      mkdirSync(work);
      xml = readFileSync(await execToXml({ exec, classes: shop.classes, name: 'shop', workDir: work }));
      // The class files are sent as an agent sends them: the list, the missing contents, the list again.
      const files = await classFilesAt(shop.classes);
      const classes = files.map((f) => ({ name: f.name, sha256: createHash('sha256').update(f.bytes).digest('hex') }));
      const list = { app: 'shop', commit: sha, classes };
      const headers = { authorization: `Bearer ${token}` };
      const first = await t.app.inject({ method: 'POST', url: '/api/coverage/class-sets', headers, payload: list });
      expect(first.json().data).toMatchObject({
        recorded: false,
        missing: expect.arrayContaining([classes[0]?.sha256]),
      });
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/coverage/class-files?app=shop',
        headers: { ...headers, 'content-type': 'application/x-tar' },
        payload: writeClassTar(files),
      });
      expect([sent.statusCode, sent.json().data]).toEqual([201, { stored: 2, known: 0 }]);
      const again = await t.app.inject({ method: 'POST', url: '/api/coverage/class-sets', headers, payload: list });
      expect(again.json().data).toEqual({ recorded: true, classes: 2, missing: [] });
    }, 120_000);
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(noJars, { recursive: true, force: true });
    });

    const upload = async (body: Buffer, envType: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/coverage/uploads?app=shop&commit=${sha}&envType=${envType}&testType=2`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { format: string; files: number };
    };
    const report = async (name: string, envType: string) => {
      const created = await t.ok<{ id: string }>('POST', '/api/reports', {
        app: 'shop',
        name,
        baseVersion: sha,
        newVersion: sha,
        envType,
        testType: 2,
        coverageType: 'full',
      });
      return waitForReport(t.db, created.id);
    };

    it('leaves the exec uploads out, figures from the XML uploads, and the step says so', async () => {
      expect(await upload(exec, 'test')).toEqual({
        uploadId: expect.any(String),
        format: 'jacoco-exec',
        files: 2,
        unmappedFiles: [],
      });
      expect((await upload(xml, 'test')).format).toBe('jacoco');
      const row = await report('no JaCoCo here', 'test');
      expect(row.status, row.errMsg ?? '').toBe('SUCCESS');
      const steps = await t.db.select().from(messages).where(eq(messages.reportId, row.id));
      expect(steps.find((m) => m.status === 'ENV_REPORT')?.text).toMatch(
        /^2 upload\(s\); 1 JaCoCo exec upload left out: JaCoCo's report cannot run on this server \(JaCoCo's Ant task is not in .*sx-no-jacoco-.*\); the figures are the XML uploads merged, with ranges where runs overlap$/,
      );
      // The figures are the XML upload's: JaCoCo's report of the same run.
      const branch = parseCoverage(xml, { format: 'jacoco' }).counters.branch;
      expect([row.branchCovered, row.branchTotal]).toEqual([
        branch?.covered,
        (branch?.covered ?? 0) + (branch?.missed ?? 0),
      ]);
    }, 120_000);

    it('with exec uploads only, the report fails saying why', async () => {
      await upload(exec, 'staging');
      const row = await report('exec only, no JaCoCo', 'staging');
      expect(row.status).toBe('ENVREPORT_FAIL');
      expect(row.errMsg).toMatch(
        new RegExp(
          `^no coverage for shop ${sha.slice(0, 12)} in staging: 1 JaCoCo exec upload left out: JaCoCo's report cannot run on this server`,
        ),
      );
    }, 120_000);
  },
);
