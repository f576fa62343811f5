import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, uploadQuery, useIntakeApp } from './support.ts';

const LCOV = 'TN:\nSF:src/a.js\nDA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n';
const BOUNDARY = 'malformed-test-boundary';

const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, content: string) =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\n` +
  `content-type: application/octet-stream\r\n\r\n${content}\r\n`;
const META = field('app', 'checkout') + field('commit', 'main') + field('envType', 'test') + field('testType', '2');
const END = `--${BOUNDARY}--\r\n`;

/** Malformed multipart bodies are the sender's fault: a 400 that says what is wrong, never a 500 (issue 32, 6). */
describe('malformed multipart uploads', () => {
  const t = useIntakeApp();
  const send = (payload: string, contentType = `multipart/form-data; boundary=${BOUNDARY}`) =>
    t.app.inject({
      method: 'POST',
      url: '/api/coverage/uploads',
      headers: { ...bearer(t.checkout.token), 'content-type': contentType },
      payload,
    });
  const nothingStored = async () => {
    const rows = await t.db.execute(sql`select count(*) as n from coverage_uploads`);
    expect(Number(rows.rows[0]?.n)).toBe(0);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  };

  it('answers 400 to multipart/form-data without a boundary', async () => {
    const res = await send(META + filePart('a.info', LCOV) + END, 'multipart/form-data');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 400,
      message: 'The multipart/form-data body names no boundary in its Content-Type.',
      data: { error: 'bad-request' },
    });
    await nothingStored();
  });

  it('answers 400 to a body cut off inside the file part', async () => {
    const res = await send(META + filePart('a.info', LCOV).slice(0, -20));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'The multipart body ended before its closing boundary.',
      data: { error: 'bad-request' },
    });
    await nothingStored();
  });

  it('answers 400 to a body cut off among the fields', async () => {
    const res = await send(META.slice(0, -10));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'The multipart body ended before its closing boundary.',
      data: { error: 'bad-request' },
    });
    await nothingStored();
  });

  it('answers 400 to a body with the metadata but no file part', async () => {
    const res = await send(META + END);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The multipart body holds no file.', data: { error: 'bad-request' } });
    await nothingStored();
  });

  it('answers 400 to two file parts, keeping neither', async () => {
    const res = await send(META + filePart('a.info', LCOV) + filePart('b.info', LCOV) + END);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'Send the metadata fields before the file, and one file.',
      data: { error: 'bad-request' },
    });
    await nothingStored();
  });

  it('still takes a well-formed multipart upload', async () => {
    const res = await send(META + filePart('a.info', LCOV) + END);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ format: 'lcov', files: 1 });
    const query = uploadQuery({ appId: t.checkout.id });
    expect((await t.call('GET', `/api/coverage/uploads?${query}`)).json().data.total).toBe(1);
  });
});
