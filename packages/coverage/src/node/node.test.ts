import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { catchError, catchErrorAsync } from '../../test/fixtures/catch-error.ts';
import { parseCoverage } from '../formats/parser.ts';
import { readCoverageFile, readCoverageStream } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'sextant-coverage-'));
const jacoco = readFileSync(new URL('../../test/fixtures/jacoco/small.xml', import.meta.url));

describe('readCoverageFile', () => {
  it('reads a plain file and a gzipped one (recognised by magic bytes, not the name) alike', async () => {
    const plain = join(dir, 'plain.xml');
    const zipped = join(dir, 'zipped.xml');
    writeFileSync(plain, jacoco);
    writeFileSync(zipped, gzipSync(jacoco));
    const expected = parseCoverage(jacoco);
    expect(await readCoverageFile(plain)).toEqual(expected);
    expect(await readCoverageFile(zipped)).toEqual(expected);
  });

  it('reads a file of several chunks as it parses the same bytes in memory, and refuses it past maxBytes', async () => {
    // Lines split across 1 MiB chunks, and more chunks than the two buffers the reader takes turns with.
    const classes = Array.from({ length: 60 }, (_, k) => {
      const lines = Array.from({ length: 2000 }, (_, i) => `<line number="${i + 1}" hits="${(i * k) % 5}"/>`);
      return `<class name="c${k}" filename="src/f${k}.py"><methods/><lines>${lines.join('\n')}</lines></class>`;
    });
    const xml = `<?xml version="1.0" ?>\n<coverage version="7"><packages><package name="p"><classes>${classes.join('\n')}</classes></package></packages></coverage>\n`;
    const big = join(dir, 'big.xml');
    writeFileSync(big, xml);
    expect(xml.length).toBeGreaterThan(3 * 1024 * 1024);
    const read = await readCoverageFile(big);
    expect(read).toEqual(parseCoverage(xml));
    let hit = 0;
    for (let k = 0; k < 60; k++) for (let i = 0; i < 2000; i++) if ((i * k) % 5 !== 0) hit++;
    expect(read.counters.line).toEqual({ covered: hit, missed: 120_000 - hit });
    const error = await catchErrorAsync(() => readCoverageFile(big, { maxBytes: 2 * 1024 * 1024 }));
    expect([error.code, error.file]).toEqual(['too-large', big]);
  });

  it('names the same line and column for a broken report as a parse of the bytes in memory does', async () => {
    // Read from a file, the scanner gives a byte offset and the reader finds the line in the file.
    const filler = Array.from({ length: 40_000 }, (_, i) => `<line number="${i + 1}" hits="1"/>`).join('\n');
    const good = `<coverage><packages><package name="p"><classes><class name="c" filename="a.py"><lines>${filler}`;
    const cases = {
      'bad value two chunks in': `${good}\n  <line number="x" hits="1"/></lines></class></classes></package></packages></coverage>\n`,
      'cut off at the end': `${good}\n`,
      'after a byte order mark':
        '\ufeff<coverage>\n<packages>\n<package name="p">\n<oops a=1/></package></packages></coverage>',
    };
    for (const [name, xml] of Object.entries(cases)) {
      const path = join(dir, `broken-${name.replaceAll(' ', '-')}.xml`);
      writeFileSync(path, xml);
      const inMemory = catchError(() => parseCoverage(xml, { fileName: path }));
      const fromFile = await catchErrorAsync(() => readCoverageFile(path));
      expect(inMemory.line, name).not.toBeNull();
      expect([fromFile.message, fromFile.line, fromFile.column], name).toEqual([
        inMemory.message,
        inMemory.line,
        inMemory.column,
      ]);
    }
  });

  it('names the line and column of a byte that breaks UTF-8, plain or gzipped, after a byte order mark or not', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `DA:${i + 1},1`).join('\n');
    const broken = Buffer.concat([
      Buffer.from(`SF:a.c\n${lines}\nDA:30001,`),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('\n'),
    ]);
    const column = 'DA:30001,'.length + 1;
    for (const bom of [Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf])]) {
      const bytes = Buffer.concat([bom, broken]);
      const plain = join(dir, `not-utf8-${bom.length}.info`);
      const zipped = join(dir, `not-utf8-${bom.length}.info.gz`);
      writeFileSync(plain, bytes);
      writeFileSync(zipped, gzipSync(bytes));
      for (const path of [plain, zipped]) {
        const error = await catchErrorAsync(() => readCoverageFile(path));
        expect([error.code, error.file, error.line, error.column]).toEqual(['not-utf8', path, 30_002, column]);
      }
      // In memory, the byte's offset (counted after the byte order mark).
      const inMemory = catchError(() => parseCoverage(bytes));
      expect([inMemory.code, inMemory.offset]).toEqual(['not-utf8', broken.length - 3]);
    }
  });

  it('refuses a gzip bomb once the decompressed size passes the bound', async () => {
    const bomb = join(dir, 'bomb.gz');
    const body = Buffer.concat([Buffer.from('SF:a.c\n'), Buffer.alloc(64 * 1024 * 1024, 'DA:1,1\n')]);
    writeFileSync(bomb, gzipSync(body, { level: 9 }));
    const error = await catchErrorAsync(() => readCoverageFile(bomb, { maxDecompressedBytes: 8 * 1024 * 1024 }));
    expect([error.code, error.file]).toEqual(['too-large', bomb]);
  });

  it('refuses a gzip bomb once it expands past the ratio bound, before its size bound', async () => {
    const bomb = join(dir, 'ratio-bomb.gz');
    const body = Buffer.concat([Buffer.from('SF:a.c\n'), Buffer.alloc(64 * 1024 * 1024, 'DA:1,1\n')]);
    writeFileSync(bomb, gzipSync(body, { level: 9 }));
    const bound = { ratio: 100, fromBytes: 4 * 1024 * 1024 };
    const error = await catchErrorAsync(() => readCoverageFile(bomb, { maxCompressionRatio: bound }));
    expect([error.code, error.reason, error.file]).toEqual([
      'too-large',
      'it expands more than 100 times when decompressed',
      bomb,
    ]);
    // A real report expands far less: the same bound reads it as before.
    const zipped = join(dir, 'ratio-real.xml.gz');
    writeFileSync(zipped, gzipSync(jacoco, { level: 9 }));
    const tight = { ratio: 100, fromBytes: 0 };
    expect(await readCoverageFile(zipped, { maxCompressionRatio: tight })).toEqual(await readCoverageFile(zipped));
  });

  it('refuses a gzipped report past the size bound even while its reading waits on the decompressor', async () => {
    // Varied lines compress about 5 times: megabytes of gzip, so the reader waits for room more than once.
    const lines = Array.from({ length: 3_000_000 }, (_, i) => `DA:${i + 1},${(i * 7) % 13}`);
    const big = join(dir, 'big-varied.info.gz');
    writeFileSync(big, gzipSync(`SF:a.c\n${lines.join('\n')}\nend_of_record\n`));
    const error = await catchErrorAsync(() => readCoverageFile(big, { maxDecompressedBytes: 8 * 1024 * 1024 }));
    expect([error.code, error.file]).toEqual(['too-large', big]);
  });

  it('refuses truncated gzip', async () => {
    const cut = join(dir, 'cut.gz');
    const zipped = gzipSync(jacoco);
    writeFileSync(cut, zipped.subarray(0, zipped.length - 30));
    expect((await catchErrorAsync(() => readCoverageFile(cut))).code).toBe('unexpected-eof');
  });

  it('refuses an empty file', async () => {
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    const error = await catchErrorAsync(() => readCoverageFile(empty));
    expect([error.code, error.file]).toEqual(['empty-input', empty]);
  });

  it('says what is wrong with a report path that names no readable file', async () => {
    const missing = await catchErrorAsync(() => readCoverageFile(join(dir, 'missing.xml')));
    expect([missing.code, missing.message]).toEqual([
      'unreadable',
      `${join(dir, 'missing.xml')}: cannot read the report: no such file (unreadable)`,
    ]);
    const folder = await catchErrorAsync(() => readCoverageFile(dir));
    expect([folder.code, folder.reason]).toEqual(['unreadable', 'cannot read the report: it is a folder']);
  });

  it('reads from a stream in small chunks', async () => {
    const chunks = [...jacoco].map((byte) => Buffer.from([byte]));
    expect(await readCoverageStream(Readable.from(chunks))).toEqual(parseCoverage(jacoco));
  });
});
