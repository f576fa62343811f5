import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGzip, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, uploadQuery, useIntakeApp } from './support.ts';

const MiB = 1024 * 1024;

/** `mb` MiB of LCOV for one file, the same line over and over, gzipped as it is made: a few hundred KB. */
function gzipBomb(mb: number): Promise<Buffer> {
  const line = Buffer.from('DA:1,1\n'.repeat(64 * 1024));
  const count = Math.ceil((mb * MiB) / line.length);
  async function* lcov() {
    yield Buffer.from('TN:\nSF:src/a.c\n');
    for (let i = 0; i < count; i++) yield line;
    yield Buffer.from('end_of_record\n');
  }
  return buffer(Readable.from(lcov()).pipe(createGzip({ level: 9 })));
}

/** A plausible report of `files` files of 2,000 lines each, varied hits: gzip shrinks it about 5 times. */
function plausibleLcov(files: number, prefix: string): Buffer {
  const records: string[] = [];
  for (let f = 0; f < files; f++) {
    const lines = [`TN:\nSF:src/${prefix}/file-${f}.c`];
    for (let l = 1; l <= 2000; l++) lines.push(`DA:${l},${(f * 31 + l * 17) % 11}`);
    records.push(`${lines.join('\n')}\nLF:2000\nLH:1818\nend_of_record\n`);
  }
  return Buffer.from(records.join(''));
}

describe('gzipped uploads are bounded after decompression too (issue 32, finding 2)', () => {
  const t = useIntakeApp({ uploadLimitBytes: 64 * MiB });
  const upload = (body: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${uploadQuery({ app: 'checkout', commit: 'main', envType: 'test', testType: 2 })}`,
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/gzip' },
      payload: body,
    });
  const rowCount = async () => Number((await t.db.execute(sql`select count(*) as n from coverage_uploads`)).rows[0]?.n);

  it('refuses a gzip bomb (413) once it expands past the ratio limit, storing nothing', async () => {
    const bomb = await gzipBomb(300);
    expect(bomb.length).toBeLessThan(MiB); // a 300 MiB report in under 1 MB on the wire
    const res = await upload(bomb);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 413, data: { error: 'payload-too-large' } });
    expect(res.json().message).toMatch(/^The coverage file is too large: upload: it expands more than 100 times/);
    expect(await rowCount()).toBe(0);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  });

  it('refuses a gzip under the upload limit whose content is over it (413), storing nothing', async () => {
    // About 5:1, as real reports compress: under the ratio limit, so only the size limit can stop it.
    const plain = plausibleLcov(3600, 'big');
    const zipped = gzipSync(plain);
    expect(plain.length).toBeGreaterThan(64 * MiB);
    expect(zipped.length).toBeLessThan(64 * MiB);
    const res = await upload(zipped);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toBe(
      `The coverage file is too large: upload: the report is larger than ${64 * MiB} bytes when decompressed (too-large)`,
    );
    expect(await rowCount()).toBe(0);
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
  });

  it('parses off the event loop: while a bomb and two real reports are read, the loop stays mostly idle', async () => {
    const bomb = await gzipBomb(300);
    const reports = [gzipSync(plausibleLcov(600, 'one')), gzipSync(plausibleLcov(600, 'two'))];
    const finished: string[] = [];
    // Event-loop utilisation is the share of wall time the loop spent running callbacks: a parse on
    // this thread keeps it near 1 whatever the machine's load, one in a worker leaves it mostly idle.
    const before = performance.eventLoopUtilization();
    const uploads = [bomb, ...reports].map((body, i) =>
      upload(body).then((res) => {
        finished.push(i === 0 ? 'bomb' : 'report');
        return res;
      }),
    );
    const me = await t.call('GET', '/api/me', undefined, t.dev);
    finished.push('me');
    const answers = await Promise.all(uploads);
    const utilisation = performance.eventLoopUtilization(before).utilization;
    expect(me.statusCode).toBe(200);
    expect(finished.indexOf('me')).toBeLessThan(finished.indexOf('bomb'));
    expect(utilisation).toBeLessThan(0.5);
    expect(answers.map((res) => res.statusCode)).toEqual([413, 201, 201]);
    expect(answers.slice(1).map((res) => res.json().data.files)).toEqual([600, 600]);
    expect(await rowCount()).toBe(2);
    expect(t.storedFiles(t.checkout.id)).toHaveLength(2);
  });
});

describe('a report that needs more memory than a parser thread may use', () => {
  const t = useIntakeApp({ config: { uploadParseMemoryMb: 64 } });
  const upload = (body: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${uploadQuery({ app: 'checkout', commit: 'main', envType: 'test', testType: 2 })}`,
      headers: { ...bearer(t.checkout.token), 'content-type': 'application/gzip' },
      payload: body,
    });

  it('is refused (413), storing nothing, and the next upload gets a new thread', async () => {
    // Each file of a report is an object on the heap: 400,000 one-line files need far more than 64 MB.
    const files = Array.from({ length: 400_000 }, (_, i) => `SF:src/wide/file-${i}.c\nDA:1,1\nend_of_record\n`);
    const res = await upload(gzipSync(files.join('')));
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toBe(
      'The coverage file is too large: upload: parsing it needs more than the 64 MB of memory an upload may use (too-large)',
    );
    expect(t.storedFiles(t.checkout.id)).toEqual([]);
    const small = await upload(gzipSync(plausibleLcov(2, 'small')));
    expect(small.statusCode, small.body).toBe(201);
    expect(small.json().data.files).toBe(2);
  });
});
