import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { DETECT_HEAD_BYTES, detectFormat } from '../detect.ts';
import type { Coverage } from '../model/coverage.ts';
import { createCoverageParser, parseCoverage } from './parser.ts';
import { Utf8Validator, VALID } from './utf8.ts';

// The byte scanners (JaCoCo, Cobertura, Clover, LCOV) against themselves: any split of the input
// into chunks, including inside tags, attribute values, numbers and multi-byte UTF-8 characters,
// must give exactly what the whole buffer gives — or the same error.

type Outcome = Coverage | { error: string };

/**
 * The fewest leading bytes from which the format is detected as from the whole: the parser holds
 * only those back, so every later cut reaches the scanner as a real chunk boundary.
 */
function detectionHead(bytes: Uint8Array): number {
  let wanted: string;
  try {
    wanted = detectFormat(bytes);
  } catch {
    return DETECT_HEAD_BYTES;
  }
  for (let n = 1; n < Math.min(bytes.length, DETECT_HEAD_BYTES); n++) {
    try {
      if (detectFormat(bytes.subarray(0, n)) === wanted) return n;
    } catch {
      // Not enough yet.
    }
  }
  return DETECT_HEAD_BYTES;
}

/** Chunk boundaries the scanner saw in the last `inChunks` (cuts past the detection head). */
let scannerCuts = 0;

function inChunks(bytes: Uint8Array, cuts: number[]): Outcome {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const head = detectionHead(bytes);
  scannerCuts = at.filter((cut) => cut > head && cut < bytes.length).length;
  try {
    const parser = createCoverageParser('auto', { detectBytes: head });
    let start = 0;
    for (const cut of [...at, bytes.length]) {
      // A fresh copy each time: the parser must not depend on the caller keeping its chunk.
      parser.write(bytes.slice(start, cut));
      start = cut;
    }
    return parser.end();
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

function whole(bytes: Uint8Array): Outcome {
  try {
    return parseCoverage(bytes);
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

const cuts = fc.array(fc.nat(), { maxLength: 40 });
const encode = (text: string) => new TextEncoder().encode(text);
const xmlEscape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
/** Names with multi-byte characters and XML specials, as a Kotlin or Scala class might have. */
const name = fc.string({
  unit: fc.constantFrom('a', 'Z', '$', '<', '&', '"', 'é', 'ß', '日', '本', '😀', ' '),
  minLength: 1,
});
const small = fc.nat({ max: 40 });

const jacocoReport = fc
  .array(
    fc.record({ cls: name, method: name, lines: fc.array(fc.tuple(small, small, small, small), { maxLength: 6 }) }),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((classes) => {
    const body = classes
      .map(({ cls, method, lines }, i) => {
        const lineXml = lines
          .map(([mi, ci, mb, cb], n) => `<line nr="${n + 1}" mi="${mi}" ci="${ci}" mb="${mb}" cb="${cb}"/>`)
          .join('');
        return (
          `<package name="p${i}/${xmlEscape(cls)}"><class name="p${i}/${xmlEscape(cls)}/C" sourcefilename="C.java">` +
          `<method name="${xmlEscape(method)}" desc="()V" line="1"><counter type="INSTRUCTION" missed="3" covered="4"/>` +
          `<counter type="METHOD" missed="0" covered="1"/></method><counter type="CLASS" missed="0" covered="1"/></class>` +
          `<sourcefile name="C.java">${lineXml}<counter type="LINE" missed="1" covered="2"/></sourcefile></package>`
        );
      })
      .join('\n  ');
    return encode(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd">` +
        `<report name="r"><!-- ü -->${body}<counter type="INSTRUCTION" missed="3" covered="4"/></report>\n`,
    );
  });

/** Counts on either side of what the byte scanner reads itself (15 digits) and what it leaves to the text path. */
const lcovCount = fc.oneof(fc.nat({ max: 1000 }), fc.constantFrom(123_456_789_012_345, 1_234_567_890_123_456));
const lcovReport = fc
  .array(
    fc.record({
      // A path often repeats: records for the same SF merge into the file an earlier one made.
      path: fc.oneof(
        name.map((n) => n.replace(/\s/g, '_')),
        fc.constantFrom('again', 'é'),
      ),
      fns: fc.array(
        name.map((n) => n.replace(/[\s,]/g, '_')),
        { maxLength: 3 },
      ),
      fndaReversed: fc.boolean(),
      crlf: fc.boolean(),
      lines: fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), lcovCount), { maxLength: 8 }),
      branches: fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.constantFrom('0', '3', 'x'), fc.option(small)), {
        maxLength: 6,
      }),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((records) =>
    encode(
      records
        .map(({ path, fns, fndaReversed, crlf, lines, branches }) => {
          const fnda = fns.map((fn, n) => `FNDA:${n * lines.length},${fn}`);
          return [
            'TN:',
            `SF:/src/${path}.c`,
            ...fns.map((fn, n) => `FN:${n + 1},${fn}`),
            ...(fndaReversed ? fnda.reverse() : fnda),
            ...branches.map(([line, block, taken], n) => `BRDA:${line},${block},${n},${taken ?? '-'}`),
            ...lines.map(([line, hits]) => `DA:${line},${hits}`),
            `LF:${lines.length}`,
            'end_of_record',
          ].join(crlf ? '\r\n' : '\n');
        })
        .join('\n')
        .concat('\n'),
    ),
  );

const fixture = (path: string) => new Uint8Array(readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url)));

describe('chunk splitting (property)', () => {
  // Cuts the scanners saw across a property's runs: a guard against chunking that never happens.
  let split = 0;
  beforeEach(() => {
    split = 0;
  });

  it('JaCoCo XML with multi-byte names and entities: chunks give the whole-buffer model', () => {
    fc.assert(
      fc.property(jacocoReport, cuts, (bytes, at) => {
        const expected = whole(bytes);
        expect('error' in expected).toBe(false);
        expect(inChunks(bytes, at)).toEqual(expected);
        split += scannerCuts;
      }),
      { numRuns: 150 },
    );
    expect(split).toBeGreaterThan(150);
  });

  it('LCOV with multi-byte paths and names, CRLF and LF: chunks give the whole-buffer model', () => {
    fc.assert(
      fc.property(lcovReport, cuts, (bytes, at) => {
        const expected = whole(bytes);
        expect('error' in expected).toBe(false);
        expect(inChunks(bytes, at)).toEqual(expected);
        split += scannerCuts;
      }),
      { numRuns: 150 },
    );
    expect(split).toBeGreaterThan(150);
  });

  it.each(['jacoco/small.xml', 'cobertura/coveragepy.xml', 'clover/small.xml'])(
    '%s: any split gives the same model',
    (path) => {
      const bytes = fixture(path);
      const expected = whole(bytes);
      fc.assert(
        fc.property(cuts, (at) => {
          expect(inChunks(bytes, at)).toEqual(expected);
          split += scannerCuts;
        }),
      );
      expect(split).toBeGreaterThan(100);
    },
  );

  it('holds back only the detection head: a later chunk is scanned when written', () => {
    const bytes = fixture('jacoco/small.xml');
    const head = detectionHead(bytes);
    expect(head).toBeLessThan(bytes.length / 2);
    const broken = bytes.slice(head, head + 64);
    broken[10] = 0xff;
    const early = createCoverageParser('auto', { detectBytes: head });
    early.write(bytes.subarray(0, head));
    expect(() => early.write(broken)).toThrow(/not valid UTF-8/);
    // With the default head the same chunk is only buffered.
    const buffered = createCoverageParser('auto');
    buffered.write(bytes.subarray(0, head));
    expect(() => buffered.write(broken)).not.toThrow();
  });

  it('a JaCoCo report cut anywhere fails (never a partial model), whatever the chunking', () => {
    fc.assert(
      fc.property(jacocoReport, fc.nat(), cuts, (bytes, cut, at) => {
        const truncated = bytes.subarray(0, cut % (bytes.length - 1));
        const outcome = inChunks(truncated, at);
        expect(outcome).toHaveProperty('error');
        expect(outcome).toEqual(whole(truncated));
      }),
      { numRuns: 150 },
    );
  });

  it('a byte that breaks UTF-8 anywhere is not-utf8, in chunks or whole', () => {
    const badByte = fc.constantFrom(0xff, 0xc0, 0x80, 0xed);
    fc.assert(
      fc.property(fc.oneof(jacocoReport, lcovReport), fc.nat(), badByte, cuts, (bytes, pos, bad, cutsAt) => {
        const broken = bytes.slice();
        const at = pos % broken.length;
        const replaced = broken[at] ?? 0;
        broken[at] = bad;
        const outcome = inChunks(broken, cutsAt);
        expect(outcome).toEqual(whole(broken));
        // In place of an ASCII byte each of these breaks UTF-8 (a continuation byte for another keeps it
        // valid); a byte broken inside the head can also make the format unrecognisable.
        if (replaced < 0x80) expect(['not-utf8', 'unknown-format']).toContain((outcome as { error?: string }).error);
      }),
      { numRuns: 150 },
    );
  });
});

describe('a chunk ending inside a character', () => {
  it('is not-utf8 when the character is broken, as the whole report is, whatever the parser made of its start', () => {
    // A lead byte where an attribute name goes, cut right after it: the scanner would call the
    // name bad before the next chunk shows the character broken.
    const report = encode('<report name="r"><counter type="LINE" missed="1" covered="2"/></report>');
    const at = report.indexOf(0x63 /* c of covered */, report.indexOf(0x6d /* m of missed */));
    const broken = report.slice();
    broken[at] = 0xed;
    expect(whole(broken)).toEqual({ error: 'not-utf8' });
    expect(inChunks(broken, [at + 1])).toEqual({ error: 'not-utf8' });
    // A character split across chunks, and a byte order mark split across the first two, still read.
    const text = encode('\ufeff<report name="r\u00e9\u65e5"><counter type="LINE" missed="1" covered="2"/></report>');
    const wholeReport = whole(text);
    expect(wholeReport).not.toHaveProperty('error');
    for (const cut of [1, 2, text.indexOf(0xe6) + 1, text.indexOf(0xe6) + 2]) {
      expect(inChunks(text, [cut])).toEqual(wholeReport);
    }
  });
});

/** Whether a fatal TextDecoder takes `bytes` whole. */
function decodes(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a fatal TextDecoder says the first broken character of `bytes` begins (null: none): after
 * the longest prefix of whole characters within what streaming decoding accepts.
 */
function decoderBrokenAt(bytes: Uint8Array): number | null {
  if (decodes(bytes)) return null;
  let accepted = 0;
  while (accepted < bytes.length) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, accepted + 1), { stream: true });
    } catch {
      break;
    }
    accepted++;
  }
  for (let p = accepted; p > 0; p--) if (decodes(bytes.subarray(0, p))) return p;
  return 0;
}

/** Where a Utf8Validator, given `bytes` in chunks cut at the ascending offsets `cuts`, finds the first broken character. */
function validatorBrokenAt(bytes: Uint8Array, cuts: readonly number[], native: null | undefined): number | null {
  const v = new Utf8Validator(native);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const at = v.write(bytes.subarray(from, to));
    if (at !== VALID) return from + at;
    from = to;
  }
  return v.end() ? null : bytes.length - v.unfinishedBytes;
}

describe.each([
  ['Node’s isUtf8 between characters', undefined],
  ['its own checks alone', null],
] as const)('Utf8Validator, %s', (_, native) => {
  it('agrees with a fatal TextDecoder on any bytes, split anywhere, and on where they break', () => {
    const nearUtf8 = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff })), {
      maxLength: 24,
    });
    fc.assert(
      fc.property(nearUtf8, fc.nat(), fc.nat({ max: 3 }), (values, cut, offset) => {
        // An offset into a larger buffer exercises the word-at-a-time path at every alignment.
        const bytes = new Uint8Array(values.length + offset).subarray(offset);
        bytes.set(values);
        expect(validatorBrokenAt(bytes, [cut % (bytes.length + 1)], native)).toBe(decoderBrokenAt(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with it on text of every width of character, one byte changed or not, in three chunks', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: -1, max: 0xff }), fc.nat(), fc.nat(), (t, where, byte, a, b) => {
        const bytes = new TextEncoder().encode(t);
        if (byte >= 0 && bytes.length > 0) bytes[where % bytes.length] = byte;
        const cuts = [a % (bytes.length + 1), b % (bytes.length + 1)].sort((x, y) => x - y);
        expect(validatorBrokenAt(bytes, cuts, native)).toBe(decoderBrokenAt(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});
