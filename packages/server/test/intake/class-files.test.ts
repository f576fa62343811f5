import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClassFile, writeClassTar } from '@sextant/coverage/node';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { UploadStorage } from '../../src/modules/intake/upload-store.ts';
import { bearer, storedUploadsOf, useIntakeApp } from './support.ts';

/** A class file as the archive reader accepts it (0xCAFEBABE first); its content makes its hash. */
const classFile = (name: string, n: number): ClassFile => ({
  name,
  bytes: new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 55, n, n, n]),
});
const hashOf = (file: ClassFile) => createHash('sha256').update(file.bytes).digest('hex');
const SHOP = classFile('demo/Shop', 1);
const MAIN = classFile('demo/Main', 2);

// Issue 38's rules for the class files agents send, with either storage (ADR 0006).
describe.each<UploadStorage>(['file', 'database'])('class files kept with %s storage', (storage) => {
  const t = useIntakeApp({ config: { uploadStorage: storage } });
  // A worker's side: another data folder, with nothing of the web process's in it.
  const otherDataDir = mkdtempSync(join(tmpdir(), 'sx-class-worker-'));
  afterAll(() => rmSync(otherDataDir, { recursive: true, force: true }));

  const sendFiles = (token: string, app: string, files: ClassFile[]) =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/class-files?app=${app}`,
      headers: { ...bearer(token), 'content-type': 'application/x-tar' },
      payload: writeClassTar(files),
    });
  const sendList = (token: string, app: string, commit: string, files: ClassFile[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/coverage/class-sets',
      headers: bearer(token),
      payload: { app, commit, classes: files.map((f) => ({ name: f.name, sha256: hashOf(f) })) },
    });
  const checkout = () => t.checkout;
  const rows = async (table: 'class_blobs' | 'class_lists', appId: string) =>
    storage === 'database'
      ? Number(
          (
            await t.db.execute<{ n: number }>(
              sql`select count(*)::int as n from ${sql.identifier(table)} where app_id = ${appId}`,
            )
          ).rows[0]?.n,
        )
      : null;

  it('records a list once every content is stored, once however often it is sent, and a worker elsewhere reads it', async () => {
    const { token, id } = checkout();
    const first = await sendList(token, 'checkout', 'v1', [SHOP, MAIN]);
    expect([first.statusCode, first.json().data]).toEqual([
      200,
      { recorded: false, classes: 2, missing: [hashOf(SHOP), hashOf(MAIN)] },
    ]);
    const sent = await sendFiles(token, 'checkout', [SHOP, MAIN, SHOP]);
    expect([sent.statusCode, sent.json().data]).toEqual([201, { stored: 2, known: 1 }]);
    const again = await sendFiles(token, 'checkout', [SHOP, MAIN]);
    expect(again.json().data).toEqual({ stored: 0, known: 2 });
    for (let i = 0; i < 2; i++) {
      const recorded = await sendList(token, 'checkout', 'v1', [MAIN, SHOP]);
      expect(recorded.json().data).toEqual({ recorded: true, classes: 2, missing: [] });
    }
    const here = await storedUploadsOf(t.db, t.dataDir, storage).classSets(id, ['v1']);
    expect(here).toEqual([
      {
        commit: 'v1',
        classes: [
          { name: 'demo/Main', sha256: hashOf(MAIN), classId: expect.stringMatching(/^[0-9a-f]{16}$/) },
          { name: 'demo/Shop', sha256: hashOf(SHOP), classId: expect.stringMatching(/^[0-9a-f]{16}$/) },
        ],
      },
    ]);
    expect([await rows('class_blobs', id), await rows('class_lists', id)]).toEqual(
      storage === 'database' ? [2, 1] : [null, null],
    );
    // Kept in the database, the contents reach a process with another data folder; on disk they do not.
    const worker = storedUploadsOf(t.db, otherDataDir, storage);
    expect(await worker.classSets(id, ['v1'])).toEqual(storage === 'database' ? here : []);
    if (storage === 'database') {
      const folder = mkdtempSync(join(otherDataDir, 'classes-'));
      await worker.writeClassFiles(id, [hashOf(SHOP), hashOf(MAIN)], folder);
      expect(readdirSync(folder).sort()).toEqual([`${hashOf(MAIN)}.class`, `${hashOf(SHOP)}.class`].sort());
      expect(readFileSync(join(folder, `${hashOf(SHOP)}.class`))).toEqual(Buffer.from(SHOP.bytes));
      expect(readdirSync(t.dataDir)).not.toContain('class-files');
    }
  });

  it('refuses a name listed twice', async () => {
    const res = await sendList(checkout().token, 'checkout', 'v2', [SHOP, { ...MAIN, name: 'demo/Shop' }]);
    expect([res.statusCode, res.json().message]).toEqual([400, 'The class demo/Shop is listed twice.']);
  });

  it("never lets an app see another app's contents", async () => {
    const res = await sendList(t.invoices.token, 'invoices', 'v1', [SHOP, MAIN]);
    expect(res.json().data).toEqual({ recorded: false, classes: 2, missing: [hashOf(SHOP), hashOf(MAIN)] });
    expect(await storedUploadsOf(t.db, t.dataDir, storage).classSets(t.invoices.id, ['v1'])).toEqual([]);
  });

  it('stores the same contents sent at once by several agents without failing', async () => {
    const files = [classFile('demo/A', 3), classFile('demo/B', 4), classFile('demo/C', 5)];
    const answers = await Promise.all(Array.from({ length: 4 }, () => sendFiles(t.invoices.token, 'invoices', files)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    const stored = answers.map((a) => a.json().data.stored as number).reduce((a, b) => a + b, 0);
    // In the database each content is counted new once; on disk two writers may both rename into place.
    if (storage === 'database') expect(stored).toBe(3);
    expect((await sendList(t.invoices.token, 'invoices', 'v3', files)).json().data.recorded).toBe(true);
  });

  it.runIf(storage === 'database')('deletes the contents and lists with their app', async () => {
    const { id } = t.invoices;
    expect(await rows('class_blobs', id)).toBe(3);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/apps/${id}`, headers: t.admin });
    expect(res.statusCode, res.body).toBe(200);
    expect([await rows('class_blobs', id), await rows('class_lists', id)]).toEqual([0, 0]);
    expect(await rows('class_blobs', checkout().id)).toBe(2);
  });
});
