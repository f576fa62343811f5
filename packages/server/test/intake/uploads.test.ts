import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mirrorDir } from '../../src/lib/data-paths.ts';
import { bearer, FIXTURES, uploadQuery, useIntakeApp } from './support.ts';

const jacoco = readFileSync(join(FIXTURES, 'jacoco/jacoco.xml'));
const istanbul = readFileSync(join(FIXTURES, 'js/coverage-final.json'));
const lcov = readFileSync(join(FIXTURES, 'js/lcov.info'));

function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const boundary = 'sextant-test-boundary';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(parts.join('') + head), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('POST /api/coverage/uploads', () => {
  const t = useIntakeApp();
  const meta = (extra: Record<string, string | number> = {}) =>
    uploadQuery({ app: 'checkout', commit: 'main', envType: 'test', testType: 2, ...extra });
  const rawUpload = (body: Buffer | string, headers: Record<string, string>, query = meta()) =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${query}`,
      headers: { 'content-type': 'application/octet-stream', ...headers },
      payload: body,
    });
  const rowsOf = async (appId: string) =>
    (await t.db.execute(sql`select * from coverage_uploads where app_id = ${appId} order by created_at`)).rows;

  it('takes a raw JaCoCo body with the ingestion token, stores the file as sent and records it', async () => {
    const res = await rawUpload(jacoco, bearer(t.checkout.token), meta({ caseId: 'LOGIN-1', agentId: 'qa-1' }));
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ format: 'jacoco', unmappedFiles: [] });
    expect(data.files).toBeGreaterThan(0);
    const [row] = (await t.db.execute(sql`select * from coverage_uploads where id = ${data.uploadId}`)).rows;
    expect(row).toMatchObject({
      app_id: t.checkout.id,
      commit: 'main',
      commit_sha: null,
      env_type: 'test',
      test_type: 2,
      case_id: 'LOGIN-1',
      agent_id: 'qa-1',
      format: 'jacoco',
      uploaded_by: null,
      files: data.files,
    });
    expect(Number(row?.size_bytes)).toBe(jacoco.length);
    expect(row?.stored_path).toBe(`uploads/${t.checkout.id}/${data.uploadId}.jacoco`);
    expect(readFileSync(join(t.dataDir, String(row?.stored_path))).equals(jacoco)).toBe(true);
  });

  it('takes the ingestion token in X-Sextant-Token and the app by id, whatever the content type', async () => {
    const res = await rawUpload(
      lcov,
      { 'x-sextant-token': t.checkout.token, 'content-type': 'text/plain' },
      meta({ app: t.checkout.id }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.format).toBe('lcov');
  });

  it('reads a JSON report sent as application/json as a file, not as a request body', async () => {
    const res = await rawUpload(istanbul, { ...bearer(t.checkout.token), 'content-type': 'application/json' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.format).toBe('istanbul');
  });

  it("streams a body far past the API's 1 MB JSON limit", async () => {
    const records = Array.from({ length: 3000 }, (_, f) => {
      const lines = Array.from({ length: 60 }, (_, l) => `DA:${l + 1},${(l + f) % 3}`).join('\n');
      return `SF:src/generated/file${f}.js\n${lines}\nend_of_record`;
    });
    const big = Buffer.from(`${records.join('\n')}\n`);
    expect(big.length).toBeGreaterThan(1.4 * 1024 * 1024);
    const res = await rawUpload(big, { ...bearer(t.checkout.token), 'content-type': 'text/plain' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ format: 'lcov', files: 3000 });
  });

  it('accepts gzip and keeps it compressed', async () => {
    const gz = gzipSync(lcov);
    const res = await rawUpload(gz, { ...bearer(t.checkout.token), 'content-type': 'application/gzip' });
    expect(res.statusCode, res.body).toBe(201);
    const { uploadId, format } = res.json().data;
    expect(format).toBe('lcov');
    const [row] = (await t.db.execute(sql`select stored_path, size_bytes from coverage_uploads where id = ${uploadId}`))
      .rows;
    expect(row?.stored_path).toMatch(/\.lcov\.gz$/);
    expect(Number(row?.size_bytes)).toBe(gz.length);
  });

  it('takes multipart with a member user token and records the user', async () => {
    const body = multipart(
      { app: 'checkout', commit: 'v1.2.0', envType: 'dev', testType: '1', format: 'istanbul' },
      { name: 'coverage-final.json', content: istanbul },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/coverage/uploads',
      headers: { ...t.dev, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { uploadId, format } = res.json().data;
    expect(format).toBe('istanbul');
    const [row] = (await t.db.execute(sql`select * from coverage_uploads where id = ${uploadId}`)).rows;
    expect(row).toMatchObject({ uploaded_by: t.devId, test_type: 1, env_type: 'dev', commit: 'v1.2.0' });
  });

  it('refuses multipart whose file comes before its metadata, keeping nothing', async () => {
    const before = (await rowsOf(t.checkout.id)).length;
    const boundary = 'b0';
    const payload =
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="x.info"\r\n\r\n${lcov}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="app"\r\n\r\ncheckout\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/coverage/uploads',
      headers: { ...bearer(t.checkout.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.json()).toMatchObject({ code: 400, data: { error: 'validation-failed' } });
    expect((await rowsOf(t.checkout.id)).length).toBe(before);
    expect(t.storedFiles(t.checkout.id).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('answers 401 to a wrong or missing token and stores nothing', async () => {
    const before = (await rowsOf(t.checkout.id)).length;
    for (const headers of [bearer('sxi_not-a-token'), bearer('a.b.c'), {}]) {
      const res = await rawUpload(jacoco, headers);
      expect(res.json()).toMatchObject({ code: 401, data: { error: 'unauthorized' } });
    }
    expect((await rowsOf(t.checkout.id)).length).toBe(before);
  });

  it("answers 403 to another team's user, to a role without upload rights, and to another app's token", async () => {
    const before = (await rowsOf(t.checkout.id)).length;
    const cases = [
      { headers: t.other, why: "not in the app's team" },
      { headers: t.client, why: 'may not create Report' },
      { headers: bearer(t.invoices.token), why: "another app's token" },
    ];
    for (const c of cases) {
      const res = await rawUpload(jacoco, c.headers);
      expect(res.json(), c.why).toMatchObject({ code: 403, data: { error: 'forbidden' } });
    }
    expect(await rowsOf(t.checkout.id)).toHaveLength(before);
    const admin = await rawUpload(jacoco, t.admin, meta({ app: 'invoices' }));
    expect(admin.statusCode, 'an administrator may upload for any team').toBe(201);
  });

  it('answers 404 for an unknown app', async () => {
    const res = await rawUpload(jacoco, t.dev, meta({ app: 'no-such-app' }));
    expect(res.json()).toMatchObject({ code: 404, data: { error: 'not-found' } });
  });

  it('answers 400 with the field for missing or bad metadata', async () => {
    const res = await rawUpload(
      jacoco,
      bearer(t.checkout.token),
      uploadQuery({ app: 'checkout', envType: 'test', testType: 3 }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toMatchObject({ error: 'validation-failed' });
    expect(Object.keys(res.json().data.fields).sort()).toEqual(['commit', 'testType']);
  });

  it("refuses a malformed file with the engine's reason, and leaves no row and no file", async () => {
    const rowsBefore = (await rowsOf(t.checkout.id)).length;
    const filesBefore = t.storedFiles(t.checkout.id).sort();
    const malformed =
      '<?xml version="1.0"?>\n<report name="demo"><package name="p">\n<class name="a"></package></report>';
    const res = await rawUpload(malformed, bearer(t.checkout.token));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 400,
      message:
        'The coverage file was refused: upload at line 3:17: closing </package> does not match <class> (malformed-xml)',
      data: { error: 'bad-request' },
    });
    expect(res.json().message).not.toContain(t.dataDir);
    expect((await rowsOf(t.checkout.id)).length).toBe(rowsBefore);
    expect(t.storedFiles(t.checkout.id).sort()).toEqual(filesBefore);

    const empty = await rawUpload(Buffer.alloc(0), bearer(t.checkout.token));
    expect(empty.json()).toMatchObject({ code: 400, data: { error: 'bad-request' } });
    expect(empty.json().message).toContain('(empty-input)');
    expect(t.storedFiles(t.checkout.id).sort()).toEqual(filesBefore);
  });

  it('refuses a declared length over the limit before reading (413)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${meta()}`,
      headers: {
        ...bearer(t.checkout.token),
        'content-type': 'application/octet-stream',
        'content-length': String(2 * 1024 ** 3),
      },
      payload: 'x',
    });
    expect(res.json()).toMatchObject({ code: 413, data: { error: 'payload-too-large' } });
  });

  it("names the report's files missing from the commit once the app's mirror holds it", async () => {
    const mirror = mirrorDir(t.dataDir, t.checkout.id);
    execFileSync('git', ['clone', '-q', '--mirror', join(FIXTURES, 'js/repo.bundle'), mirror]);
    const at = async (commit: string) => {
      const res = await rawUpload(istanbul, bearer(t.checkout.token), meta({ commit }));
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      const [row] = (
        await t.db.execute(sql`select commit_sha, unmapped_files from coverage_uploads where id = ${data.uploadId}`)
      ).rows;
      return { data, row };
    };
    const head = await at('head');
    expect(head.data).toMatchObject({ files: 4, unmappedFiles: [] });
    expect(head.row?.commit_sha).toBe(
      execFileSync('git', ['-C', mirror, 'rev-parse', 'head^{commit}'], { encoding: 'utf8' }).trim(),
    );
    // The base commit has no report.js nor unused.js yet.
    const base = await at('base');
    expect(base.data.unmappedFiles.sort()).toEqual([
      '/tmp/sextant-fixtures/js/src/report.js',
      '/tmp/sextant-fixtures/js/src/unused.js',
    ]);
    expect(base.row?.unmapped_files).toEqual(base.data.unmappedFiles);
    // A commit the mirror has not fetched yet cannot be judged: kept, nothing named.
    const later = await at('not-fetched-yet');
    expect(later.data.unmappedFiles).toEqual([]);
    expect(later.row?.commit_sha).toBeNull();
  });

  it("lists uploads to administrators and to members of the app's team only", async () => {
    const all = await t.call('GET', `/api/coverage/uploads?appId=${t.checkout.id}&perPage=100`);
    const mine = await t.call('GET', `/api/coverage/uploads?appId=${t.checkout.id}&perPage=100`, undefined, t.dev);
    const others = await t.call('GET', `/api/coverage/uploads?appId=${t.checkout.id}`, undefined, t.other);
    expect(all.json().data.total).toBe((await rowsOf(t.checkout.id)).length);
    expect(mine.json().data.total).toBe(all.json().data.total);
    expect(others.json().data).toEqual({ items: [], total: 0 });
    expect(all.json().data.items[0]).toMatchObject({ appId: t.checkout.id });
    expect(all.json().data.items[0]).not.toHaveProperty('storedPath');
  });
});
