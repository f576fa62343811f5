import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { uploadsDir } from '../../src/lib/data-paths.ts';
import type { UploadRow } from '../../src/modules/intake/index.ts';
import { IntakeRepository } from '../../src/modules/intake/repository.ts';
import { BLOB_CHUNK_BYTES, UploadStore } from '../../src/modules/intake/upload-store.ts';
import { bearer, FIXTURES, storedUploadsOf, uploadQuery, useIntakeApp } from './support.ts';

const jacoco = readFileSync(join(FIXTURES, 'jacoco/jacoco.xml'));

/** An LCOV report whose hit counts do not repeat, so that even gzipped it spans several chunks. */
function largeLcov(): Buffer {
  let seed = 41;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const records = Array.from({ length: 1500 }, (_, f) => {
    const lines = Array.from({ length: 200 }, (_, l) => `DA:${l + 1},${next()}`).join('\n');
    return `SF:src/generated/file${f}.js\n${lines}\nend_of_record`;
  });
  return Buffer.from(`${records.join('\n')}\n`);
}

// Issue 41, ADR 0006: with uploads kept in the database, a worker with its own data folder (on
// another machine) reads what a web process received.
describe('uploads kept in the database', () => {
  const t = useIntakeApp({ config: { uploadStorage: 'database' } });
  // The worker's side: another data folder, with nothing of the web process's in it.
  const otherDataDir = mkdtempSync(join(tmpdir(), 'sx-worker-'));
  afterAll(() => rmSync(otherDataDir, { recursive: true, force: true }));

  const upload = (body: Buffer, commit = 'main') =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${uploadQuery({ app: 'checkout', commit, envType: 'test', testType: 2 })}`,
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/octet-stream' },
      payload: body,
    });
  const rowOf = async (id: string) =>
    (await t.db.execute(sql`select * from coverage_uploads where id = ${id}`)).rows[0] as Record<string, unknown>;
  const chunksOf = async (id: string) =>
    (
      await t.db.execute<{ seq: number; data: Buffer }>(
        sql`select seq, data from upload_blobs where upload_id = ${id} order by seq`,
      )
    ).rows;
  /** The row as the pipeline gets it (a typed UploadRow). */
  const typedRow = async (id: string): Promise<UploadRow> => {
    const all = await storedUploadsOf(t.db, otherDataDir).forReport(t.checkout.id, 'test', 2);
    const row = all.find((u) => u.id === id);
    if (!row) throw new Error(`no upload ${id}`);
    return row;
  };

  it('gzips a plain upload into chunks of at most 1 MiB, leaves no file behind, and another data folder reads it', async () => {
    const lcov = largeLcov();
    const res = await upload(lcov);
    expect(res.statusCode, res.body).toBe(201);
    const { uploadId, files } = res.json().data;
    expect(await rowOf(uploadId)).toMatchObject({ storage: 'database', stored_path: null });
    expect(Number((await rowOf(uploadId)).size_bytes)).toBe(lcov.length);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);

    const chunks = await chunksOf(uploadId);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.data.length <= BLOB_CHUNK_BYTES)).toBe(true);
    const kept = Buffer.concat(chunks.map((c) => c.data));
    expect(kept.length).toBeLessThan(lcov.length / 2);
    expect(gunzipSync(kept).equals(lcov)).toBe(true);

    const coverage = await storedUploadsOf(t.db, otherDataDir).read(await typedRow(uploadId), { format: 'lcov' });
    expect(coverage.files).toHaveLength(files);
    expect(coverage.files[7]?.path).toBe('src/generated/file7.js');
  }, 120_000);

  it('keeps a gzipped upload as sent', async () => {
    const gz = gzipSync(jacoco);
    const res = await upload(gz);
    expect(res.statusCode, res.body).toBe(201);
    const { uploadId } = res.json().data;
    expect(Buffer.concat((await chunksOf(uploadId)).map((c) => c.data)).equals(gz)).toBe(true);
    const coverage = await storedUploadsOf(t.db, otherDataDir).read(await typedRow(uploadId), { format: 'jacoco' });
    expect(coverage.files.length).toBe(res.json().data.files);
  });

  it('records nothing and keeps nothing for a refused upload', async () => {
    const before = await t.db.execute(sql`select count(*)::int as n from upload_blobs`);
    const res = await upload(Buffer.from('<report><not-jacoco'));
    expect(res.statusCode).toBe(400);
    expect((await t.db.execute(sql`select count(*)::int as n from upload_blobs`)).rows).toEqual(before.rows);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  });

  it('writes the row and its chunks in one transaction: a failure midway leaves neither', async () => {
    const repository = new IntakeRepository(t.db, () => sql`select null::uuid`);
    const id = randomUUID();
    async function* failing() {
      yield Buffer.from('first chunk');
      throw new Error('the disk went away');
    }
    const row = {
      id,
      appId: t.checkout.id,
      commit: 'main',
      envType: 'test',
      testType: 2,
      format: 'lcov',
      storage: 'database' as const,
      storedPath: null,
      sizeBytes: 11,
      files: 1,
    };
    await expect(repository.insertUploadWithBlobs(row, failing())).rejects.toThrow('the disk went away');
    expect(await rowOf(id)).toBeUndefined();
    expect(await chunksOf(id)).toEqual([]);
  });

  it('still reads an upload kept on disk before the database was chosen (nothing is moved)', async () => {
    const repository = new IntakeRepository(t.db, () => sql`select null::uuid`);
    const dir = uploadsDir(t.dataDir, t.checkout.id);
    mkdirSync(dir, { recursive: true });
    const received = join(dir, `.incoming-${randomUUID()}`);
    writeFileSync(received, jacoco);
    const id = randomUUID();
    await new UploadStore(repository, t.dataDir, 'file').keep(
      { path: received, sizeBytes: jacoco.length, gzip: false },
      {
        id,
        appId: t.checkout.id,
        commit: 'old',
        envType: 'test',
        testType: 2,
        format: 'jacoco',
        sizeBytes: 1,
        files: 1,
      },
    );
    expect(await rowOf(id)).toMatchObject({ storage: 'file', stored_path: `uploads/${t.checkout.id}/${id}.jacoco` });
    // The web process's own data folder, as a single machine (or a shared mount) has it.
    const coverage = await storedUploadsOf(t.db, t.dataDir, 'database').read(await typedRow(id), { format: 'jacoco' });
    expect(coverage.files.length).toBeGreaterThan(0);
    // A process whose data folder lacks the file says which upload it could not read.
    await expect(storedUploadsOf(t.db, otherDataDir, 'database').read(await typedRow(id), {})).rejects.toThrow(
      /no such file/,
    );
  });
});
