import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { zipOf } from '../../../../tools/test-support/zip.ts';
import { readBoundedFile } from './bounded-read.ts';
import { ClassArchiveError, readClassArchive, writeClassTar } from './class-archive.ts';
import { classFilesAt } from './class-ids.ts';

const CLASS = (n: number) => new Uint8Array([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 55, n, n]);
const LIMITS = { maxEntries: 10, maxEntryBytes: 1024, maxTotalBytes: 4096 };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ClassArchiveError) return [error.problem, error.message];
    throw error;
  }
  return null;
};

describe('class archives (issue 38)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sx-class-archive-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what it writes, and a jar the JDK made, keeping class files outside META-INF only', () => {
    const files = [
      { name: 'demo/Shop', bytes: CLASS(1) },
      { name: `deep/${'a'.repeat(120)}/Long$Inner`, bytes: CLASS(2) },
    ];
    expect(readClassArchive(writeClassTar(files), LIMITS)).toEqual(files);
    const classes = join(dir, 'classes');
    mkdirSync(join(classes, 'demo'), { recursive: true });
    mkdirSync(join(classes, 'META-INF/versions/11'), { recursive: true });
    writeFileSync(join(classes, 'demo/Shop.class'), CLASS(1));
    writeFileSync(join(classes, 'META-INF/versions/11/X.class'), CLASS(3));
    writeFileSync(join(classes, 'demo/notes.txt'), 'x');
    const jar = join(dir, 'app.jar');
    execFileSync('jar', ['cf', jar, '-C', classes, '.']);
    expect(readClassArchive(readFileSync(jar), LIMITS)).toEqual([
      { name: 'demo/Shop', bytes: new Uint8Array(CLASS(1)) },
    ]);
  });

  it('reads a build folder and a jar alike', async () => {
    const folder = await classFilesAt(join(dir, 'classes'));
    expect(folder.map((f) => f.name)).toEqual(['demo/Shop']);
    expect((await classFilesAt(join(dir, 'app.jar'))).map((f) => f.name)).toEqual(['demo/Shop']);
  });

  it('refuses names leaving the archive, links, bombs, too many entries and what is no class file', () => {
    const tarEntry = (name: string, type = '0', data = CLASS(1)) => {
      const header = Buffer.alloc(512);
      header.write(name, 0);
      header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
      header.write(type, 156, 'latin1');
      header.write('ustar\u000000', 257, 'latin1');
      return Buffer.concat([header, data, Buffer.alloc(512 - data.length), Buffer.alloc(1024)]);
    };
    expect(refusal(() => readClassArchive(tarEntry('../x/A.class'), LIMITS))).toEqual([
      'unsafe-path',
      `the archive entry "../x/A.class" leaves the archive's folder`,
    ]);
    expect(refusal(() => readClassArchive(zipOf([{ name: 'C:\\w\\A.class', data: CLASS(1) }]), LIMITS))?.[0]).toBe(
      'unsafe-path',
    );
    expect(refusal(() => readClassArchive(tarEntry('a/L.class', '1'), LIMITS))?.[0]).toBe('unsafe-path');
    const zeros = Buffer.alloc(1 << 20);
    for (const declared of [zeros.length, 10]) {
      expect(refusal(() => readClassArchive(zipOf([{ name: 'B.class', data: zeros, declared }]), LIMITS))).toEqual([
        'too-large',
        'the archive entry B.class is larger than 1024 bytes',
      ]);
    }
    const many = Array.from({ length: 11 }, (_, i) => ({ name: `C${i}.class`, data: CLASS(i) }));
    expect(refusal(() => readClassArchive(zipOf(many), LIMITS))).toEqual([
      'too-large',
      'the archive holds more than 10 entries',
    ]);
    const big = Array.from({ length: 5 }, (_, i) => ({
      name: `D${i}.class`,
      data: Buffer.concat([CLASS(i), Buffer.alloc(1000)]),
    }));
    expect(refusal(() => readClassArchive(zipOf(big), LIMITS))?.[1]).toBe(
      "the archive's class files exceed 4096 bytes",
    );
    expect(
      refusal(() => readClassArchive(zipOf([{ name: 'E.class', data: Buffer.from('plain text!') }]), LIMITS)),
    ).toEqual(['bad-archive', 'E.class is not a class file (no 0xCAFEBABE)']);
    expect(refusal(() => readClassArchive(Buffer.from('PK\x03\x04 and nothing'), LIMITS))).toEqual([
      'bad-archive',
      'not a readable zip: no end of central directory',
    ]);
  });

  it('stops a gzip bomb at its bound, by size and by ratio', async () => {
    const bomb = join(dir, 'bomb.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(8 << 20)));
    await expect(readBoundedFile(bomb, { maxBytes: 1 << 20 })).rejects.toThrow(
      /more than 1048576 bytes once gunzipped/,
    );
    await expect(
      readBoundedFile(bomb, { maxBytes: 64 << 20, maxRatio: { ratio: 100, fromBytes: 1 << 16 } }),
    ).rejects.toThrow(/expands more than 100 times/);
    expect((await readBoundedFile(bomb, { maxBytes: 64 << 20 })).length).toBe(8 << 20);
  });
});
