// Findings 1 (a build reads and publishes the server's secrets) and 2 (gzip bomb) of issue 32.
import { gzipSync } from 'node:zlib';
import { call, must, sleep, streamingPost } from './client.mjs';

const FINAL_STATUS = /(_FAIL|^FAILADDMODULE|^SUCCESS)$/;
const SECRET_NAME = /^([A-Z0-9_]*(SECRET|PASSWORD|TOKEN|KEY|DATABASE_URL|REDIS_URL)[A-Z0-9_]*)=(.*)$/;

/** Lines of build output that show a secret: a secret-named variable with a value, or the key file. */
function leaksIn(errMsg, knownSecrets) {
  const leaks = [];
  for (const line of errMsg.split('\n')) {
    const m = line.match(SECRET_NAME);
    if (m?.[3] && !/^\*+$/.test(m[3])) leaks.push(`${m[1]}=…`);
  }
  const between = errMsg.match(/PROBE-SECRET-BEGIN\n([\s\S]*?)PROBE-SECRET-END/);
  const file = between?.[1].trim() ?? '';
  if (file && !/\*\*\*|No such file|Permission denied|cannot open|not permitted/i.test(file)) {
    leaks.push('the jwt-secret file');
  }
  for (const secret of knownSecrets) if (secret && errMsg.includes(secret)) leaks.push('a known secret value');
  return [...new Set(leaks)];
}

export const buildSecrets = {
  id: 1,
  title: 'build cannot read or publish secrets',
  timeoutMs: 150_000,
  async run(ctx) {
    const repoUrl = ctx.options.repo ?? ctx.fixtures.localRepository();
    const created = await ctx.fixtures.createApp({
      name: `${ctx.prefix}-build`,
      repoUrl,
      buildCommand:
        "env | grep -E 'SECRET|PASSWORD|TOKEN|KEY|DATABASE|REDIS|SEXTANT'; echo PROBE-SECRET-BEGIN; " +
        'cat ../../jwt-secret 2>&1; echo; echo PROBE-SECRET-END; exit 3',
    });
    if (created.status >= 400) {
      return {
        skip: `the app was refused (${created.status} ${created.json?.message ?? ''}); give --repo a repository the server may clone`,
      };
    }
    const report = await must(ctx.base, 'POST', '/api/reports', {
      token: ctx.admin.accessToken,
      body: {
        app: created.json.data.id,
        name: `${ctx.prefix}-build`,
        baseVersion: 'main',
        newVersion: 'main',
        envType: 'test',
        testType: 1,
        coverageType: 'full',
      },
    });
    ctx.fixtures.undo.push(() =>
      call(ctx.base, 'DELETE', `/api/reports/${report.id}`, { token: ctx.admin.accessToken }),
    );
    const deadline = Date.now() + 120_000;
    let seen = report;
    while (!FINAL_STATUS.test(seen.status) && Date.now() < deadline) {
      await sleep(500);
      seen = await must(ctx.base, 'GET', `/api/getReport?reportId=${report.id}`, { token: ctx.admin.accessToken });
    }
    if (!FINAL_STATUS.test(seen.status)) return { pass: false, observed: `the report stayed ${seen.status} for 120 s` };
    const errMsg = seen.errMsg ?? '';
    const leaks = leaksIn(errMsg, [ctx.admin.password, ctx.jwtSecret]);
    return {
      pass: leaks.length === 0,
      observed: `report ${seen.status}; errMsg ${leaks.length ? `shows ${leaks.join(', ')}` : 'shows no secret'}`,
    };
  },
};

/** LCOV that gzip shrinks about a thousand times: one line counted over and over. */
function bombMembers() {
  const block = Buffer.from('DA:1,1\n'.repeat(Math.floor((16 * 1024 * 1024) / 7)));
  return {
    head: gzipSync('TN:\nSF:src/probe.js\n'),
    body: gzipSync(block, { level: 9 }),
    bodyBytes: block.length,
    tail: gzipSync('end_of_record\n'),
  };
}

export const gzipBomb = {
  id: 2,
  title: 'gzip bomb refused while streaming',
  timeoutMs: 120_000,
  async run(ctx) {
    const created = await ctx.fixtures.createApp({
      name: `${ctx.prefix}-bomb`,
      repoUrl: 'https://example.invalid/probe.git',
    });
    if (created.status >= 400) return { skip: `could not create the app (${created.status})` };
    const token = created.json.data.ingestionToken;
    const members = bombMembers();
    const expanded = ctx.options.bombMb * 1024 * 1024;
    let sent = 0;
    let meSlowest = 0;
    let uploading = true;
    const watchMe = (async () => {
      while (uploading) {
        const me = await call(ctx.base, 'GET', '/api/me', { token: ctx.admin.accessToken }).catch(() => ({
          ms: 15_000,
        }));
        meSlowest = Math.max(meSlowest, me.ms);
        await sleep(250);
      }
    })();
    const query = new URLSearchParams({ app: created.json.data.id, commit: 'main', envType: 'test', testType: '1' });
    const answer = await streamingPost(
      ctx.base,
      `/api/coverage/uploads?${query}`,
      { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      async (req, answered) => {
        const write = (chunk) =>
          new Promise((resolve) => {
            if (!req.write(chunk)) req.once('drain', resolve);
            else resolve();
          });
        await write(members.head);
        for (let done = 0; done < expanded && !answered(); done += members.bodyBytes) {
          await write(members.body);
          sent += members.body.length;
        }
        if (!answered()) req.end(members.tail);
      },
      90_000,
    ).finally(() => {
      uploading = false;
    });
    await watchMe;
    const refused = answer.status === 413 || answer.status === 429;
    return {
      pass: refused && meSlowest < 2000,
      observed:
        `${answer.status} after ${(answer.ms / 1000).toFixed(1)} s (${Math.round(sent / 1024)} KB sent of a ` +
        `${ctx.options.bombMb} MiB bomb); slowest /api/me meanwhile ${meSlowest} ms`,
    };
  },
};
