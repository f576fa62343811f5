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
  'jacoco/jacoco.xml',
  'c/lcov.info',
  'c/gcovr-cobertura.xml',
  'python/coverage.xml',
  'python/coverage.json',
  'python/coverage.lcov',
  'go/cover-count.out',
  'js/coverage-final.json',
  'js/lcov.info',
  'js/cobertura-coverage.xml',
  'js/clover.xml',
];

describe.each(reports)('%s', (report) => {
  const bytes = new Uint8Array(readFileSync(fixturePath(report)));
  const whole = parseCoverage(bytes);

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
