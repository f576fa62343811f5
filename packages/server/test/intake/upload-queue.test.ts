import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { uploadFile } from '@sextant/cli/testing';
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_SECONDS } from '../../src/modules/intake/upload-admission.ts';
import { bearer, uploadQuery, useIntakeApp } from './support.ts';

const LCOV = 'TN:\nSF:src/a.js\nDA:1,1\nDA:2,0\nLF:2\nLH:1\nend_of_record\n';

/** A body whose first byte the server asks for when it starts reading; the rest waits for `finish`. */
function heldBody() {
  let reading!: () => void;
  const started = new Promise<void>((resolve) => {
    reading = resolve;
  });
  let sent = false;
  const body = new Readable({
    read() {
      reading();
      if (!sent) this.push(LCOV.slice(0, 10));
      sent = true;
    },
  });
  const finish = () => {
    body.push(LCOV.slice(10));
    body.push(null);
  };
  return { body, started, finish };
}

/** At most N uploads parsed at once, a bounded queue behind them, then 429 (issue 32, finding 2). */
describe('upload admission', () => {
  // One parsed at a time and one waiting: a third upload in progress is one too many.
  const t = useIntakeApp({ config: { uploadParsers: 1, uploadQueue: 1 } });
  const upload = (payload: Readable | string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/coverage/uploads?${uploadQuery({ app: 'checkout', commit: 'main', envType: 'test', testType: 2 })}`,
      headers: { ...bearer(t.checkout.token), 'content-type': 'text/plain' },
      payload,
    });

  it('answers 429 with Retry-After beyond the parsers and the queue, and takes uploads again once they are done', async () => {
    const held = [heldBody(), heldBody()];
    const pending = held.map((h) => upload(h.body));
    await Promise.all(held.map((h) => h.started));

    const refused = await upload(LCOV);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 429,
      message: 'Too many coverage uploads are being processed; send it again later.',
      data: { error: 'rate-limited' },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(t.storedFiles(t.checkout.id).filter((name) => !name.startsWith('.incoming-'))).toEqual([]);

    for (const h of held) h.finish();
    expect((await Promise.all(pending)).map((res) => res.statusCode)).toEqual([201, 201]);
    const again = await upload(LCOV);
    expect(again.statusCode, again.body).toBe(201);
    expect(t.storedFiles(t.checkout.id)).toHaveLength(3);
  });

  it('sextant upload waits the Retry-After of a 429 and sends the file again', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const server = { url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, token: t.checkout.token };
    const dir = mkdtempSync(join(tmpdir(), 'sx-cli-busy-'));
    try {
      writeFileSync(join(dir, 'a.info'), LCOV);
      const held = [heldBody(), heldBody()];
      const pending = held.map((h) => upload(h.body));
      await Promise.all(held.map((h) => h.started));
      const waits: number[] = [];
      // The CLI's wait, made by the test: the busy uploads end meanwhile, so the second try is taken.
      const wait = async (seconds: number) => {
        waits.push(seconds);
        for (const h of held) h.finish();
        await Promise.all(pending);
      };
      const meta = { app: 'checkout', commit: 'main', envType: 'test', testType: '2' as const };
      const result = await uploadFile(server, meta, join(dir, 'a.info'), wait);
      expect(waits).toEqual([RETRY_AFTER_SECONDS]);
      expect(result).toMatchObject({ format: 'lcov', files: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
