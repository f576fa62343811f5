import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mirrorDir } from '../src/lib/data-paths.ts';
import { bearer, FIXTURES, uploadQuery, useIntakeApp } from './intake/support.ts';

const lcov = readFileSync(join(FIXTURES, 'js/lcov.info'));

function expectFieldError(res: { statusCode: number; body: string; json: () => unknown }, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({
    code: 400,
    data: { error: 'validation-failed', fields: { [field]: expect.any(String) } },
  });
}

// Issue 32, finding 6: bad text anywhere is a 400 naming the field, never a 500 from the database.
describe('text no field may hold', () => {
  const t = useIntakeApp();
  const count = async (table: string) =>
    Number((await t.db.execute(sql.raw(`select count(*)::int as n from ${table}`))).rows[0]?.n);

  it('refuses a NUL byte in the unauthenticated sign-in with a field error', async () => {
    const failuresBefore = await count('login_failures');
    for (const username of ['a\u0000b', 'adm\u0007in', 'x\ud800', '\udfffy', 'a'.repeat(100_000)]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password: 'p' } });
      expectFieldError(res, 'username');
    }
    expect(await count('login_failures')).toBe(failuresBefore);
  });

  // A URL cannot carry a lone surrogate: its UTF-8 bytes do not decode, and the text stays as sent.
  it('refuses NUL and control characters (line breaks too) in q= of the lists', async () => {
    for (const url of ['/api/users', '/api/teams', '/api/apps']) {
      for (const q of ['a\u0000b', 'esc\u001b[31m', 'tab\there', 'line\nbreak']) {
        const res = await t.app.inject({ method: 'GET', url: `${url}?q=${encodeURIComponent(q)}`, headers: t.admin });
        expectFieldError(res, 'q');
      }
    }
  });

  it('answers 401, not a field error, to a caller who is not signed in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users?q=%00' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a NUL in the agent heart-beat and records no heart-beat', async () => {
    const before = await count('agent_heartbeats');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/coverage/agents/heartbeat',
      headers: bearer(t.checkout.token),
      payload: { app: 'checkout', agentId: 'qa\u00001', envType: 'test', status: 'HEART_BEAT_DONE' },
    });
    expectFieldError(res, 'agentId');
    expect(await count('agent_heartbeats')).toBe(before);
  });

  it('names the nested field and refuses a control character in a field name', async () => {
    const nested = await t.call('POST', '/api/teams', { name: 'ok', memberIds: ['x\u0000'] });
    expectFieldError(nested, 'memberIds.0');
    const key = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: t.admin,
      payload: { 'zentao\u0000Url': 'x' },
    });
    expectFieldError(key, 'zentao\\u0000Url');
  });

  it('keeps tab and line breaks in JSON text, where a description may be multi-line', async () => {
    const res = await t.call('POST', '/api/teams', { name: 'multi-line', description: 'one\n\ttwo\r\nthree' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.description).toBe('one\n\ttwo\r\nthree');
  });

  it('refuses a NUL in an upload: in the query string, and in a multipart field (one line) past the request check', async () => {
    const before = await count('coverage_uploads');
    const raw = await t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${uploadQuery({ app: 'checkout', commit: 'main', envType: 'test', testType: 1, caseId: 'C\u00001' })}`,
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/octet-stream' },
      payload: lcov,
    });
    expectFieldError(raw, 'caseId');
    const boundary = 'text-guard-boundary';
    const field = (name: string, value: string) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    // A form field is one line: metadata, not text.
    for (const agentId of ['qa\u0000', 'qa\n1']) {
      const payload = Buffer.concat([
        Buffer.from(
          field('app', 'checkout') +
            field('commit', 'main') +
            field('envType', 'test') +
            field('testType', '1') +
            field('agentId', agentId) +
            `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="lcov.info"\r\n\r\n`,
        ),
        lcov,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const multipart = await t.app.inject({
        method: 'POST',
        url: '/api/coverage/uploads',
        headers: { ...bearer(t.checkout.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expectFieldError(multipart, 'agentId');
    }
    expect(await count('coverage_uploads')).toBe(before);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  });

  it('refuses a NUL inside a CSV import body, a text document of its own', async () => {
    const before = await count('cases');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/cases/import?appId=${t.checkout.id}`,
      headers: { ...t.admin, 'content-type': 'text/csv' },
      payload: 'title,type\nlogin\u0000works,functional\n',
    });
    expectFieldError(res, '_');
    expect(await count('cases')).toBe(before);
  });

  // The engine takes any text a format allows; the upload's files missing from the commit are stored.
  it('refuses a coverage report whose paths or names hold NUL or control characters, keeping nothing', async () => {
    execFileSync('git', [
      'clone',
      '-q',
      '--mirror',
      join(FIXTURES, 'js/repo.bundle'),
      mirrorDir(t.dataDir, t.invoices.id),
    ]);
    const before = await count('coverage_uploads');
    const reports = [
      'TN:\nSF:src/a\u0000b.js\nDA:1,1\nend_of_record\n',
      'TN:\nSF:src/ok.js\nFN:1,fn\u001bx\nFNDA:1,fn\u001bx\nDA:1,1\nend_of_record\n',
    ];
    for (const report of reports) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/coverage/uploads?${uploadQuery({ app: 'invoices', commit: 'head', envType: 'test', testType: 1 })}`,
        headers: { ...bearer(t.invoices.token), 'content-type': 'application/octet-stream' },
        payload: report,
      });
      expectFieldError(res, 'file');
    }
    expect(await count('coverage_uploads')).toBe(before);
    expect(t.storedFiles(t.invoices.id)).toEqual([]);
  });
});
