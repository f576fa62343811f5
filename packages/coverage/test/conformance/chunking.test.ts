import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createCoverageParser, parseCoverage } from '../../src/index.ts';
import { readCoverageStream } from '../../src/node/index.ts';
import { fixturePath } from './tool-output.ts';

// Every report the real tools wrote, parsed whole, in chunks cut anywhere (inside tags, attribute
// values, numbers and records) and gzipped from a stream: the results must be identical.
const reports = [
  ['jacoco/jacoco.xml', 'jacoco'],
  ['c/lcov.info', 'lcov'],
  ['c/gcovr-cobertura.xml', 'cobertura'],
  ['python/coverage.xml', 'cobertura'],
  ['python/coverage.json', 'coveragepy'],
  ['python/coverage.lcov', 'lcov'],
  ['go/cover-count.out', 'go'],
  ['js/coverage-final.json', 'istanbul'],
  ['js/lcov.info', 'lcov'],
  ['js/cobertura-coverage.xml', 'cobertura'],
  ['js/clover.xml', 'clover'],
] as const;

describe.each(reports)('%s', (report, format) => {
  const bytes = new Uint8Array(readFileSync(fixturePath(report)));
  const whole = parseCoverage(bytes);

  it(`is detected as ${format} by its content`, () => {
    expect(whole.format).toBe(format);
  });

  it.each([1, 7, 4093])('parses the same in chunks of %i bytes', (size) => {
    const parser = createCoverageParser('auto');
    for (let at = 0; at < bytes.length; at += size) parser.write(bytes.subarray(at, at + size));
    expect(parser.end()).toEqual(whole);
  });

  it('parses the same gzipped, from a stream', async () => {
    const stream = Readable.from([gzipSync(bytes)]);
    expect(await readCoverageStream(stream)).toEqual(whole);
  });
});
