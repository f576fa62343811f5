import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { receiveToFile } from './receive.ts';

const root = mkdtempSync(join(tmpdir(), 'sextant-receive-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('receiveToFile', () => {
  it('leaves no file behind when a body passes the limit at once, while its file is still being opened', async () => {
    // The first chunk is already too large: the copy stops before the file's open may have finished.
    // Many at once, so that the file system's thread pool is busy and opens come late.
    const dirs = Array.from({ length: 200 }, (_, i) => join(root, `stopped-${i}`));
    await Promise.all(
      dirs.map((dir) =>
        expect(receiveToFile(Readable.from([Buffer.alloc(64)]), dir, 16)).rejects.toMatchObject({ status: 413 }),
      ),
    );
    // Checked after all of them: a file an open created after its removal would show by now.
    await receiveToFile(Readable.from([Buffer.from('ok')]), join(root, 'kept'), 16);
    expect(dirs.flatMap((dir) => readdirSync(dir))).toEqual([]);
    expect(readdirSync(join(root, 'kept'))).toHaveLength(1);
  });
});
