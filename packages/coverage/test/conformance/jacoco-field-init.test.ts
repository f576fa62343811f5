import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { COUNTER_KINDS, Counter, Counters, DiffCoverage } from '../../src/index.ts';
import { reportWithDiff } from '../../src/node/index.ts';
import { cloneFixtureRepo } from './diff-cover.ts';
import { type JacocoElement, readJacocoXml } from './jacoco-counters.ts';
import { fixturePath, readFixture } from './tool-output.ts';

// Issue 37: a changed instance field initialiser (fixtures/jacoco-field-init, made by JaCoCo 0.8.6)
// is part of each constructor javac compiled it into, as JaCoCo counts its line in each of them:
// Stock's (String) and (int) constructors, not (String, int), which calls this(item); Alerts' one.
// Before, it was a changed `<init>` with no descriptor carrying the counters of every constructor.
const jacoco = readJacocoXml(readFixture('jacoco-field-init/jacoco.xml'));
const STOCK = 'demo/inventory/Stock';
const ALERTS = 'demo/inventory/Alerts';
let repo: string;
let diff: DiffCoverage;

/** JaCoCo's own counters of a method, by class, name and descriptor (the XML escapes `<init>`). */
function jacocoMethod(cls: string, descriptor: string): JacocoElement {
  const found = [...jacoco.elements.values()].find(
    (e) =>
      e.key.startsWith(`method:${cls}#&lt;init&gt;${descriptor}@`) ||
      e.key.startsWith(`method:${cls}#<init>${descriptor}@`),
  );
  if (!found) throw new Error(`JaCoCo has no ${cls}.<init>${descriptor}`);
  return found;
}

const sumOf = (elements: JacocoElement[], kind: (typeof COUNTER_KINDS)[number]): Counter =>
  elements.reduce(
    (acc, e) => ({
      covered: acc.covered + (e.counters[kind]?.covered ?? 0),
      missed: acc.missed + (e.counters[kind]?.missed ?? 0),
    }),
    { covered: 0, missed: 0 },
  );

beforeAll(async () => {
  repo = cloneFixtureRepo('jacoco-field-init');
  const result = await reportWithDiff({
    files: [fixturePath('jacoco-field-init/jacoco.xml')],
    format: 'auto',
    repo,
    base: 'base',
    head: 'head',
    methods: { cacheDir: null },
  });
  if (!result.diff) throw new Error('no diff');
  diff = result.diff;
});

afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

describe('a changed field initialiser, as JaCoCo attributes it', () => {
  it('is no method of its own: every changed method has its descriptor', () => {
    expect(diff.incremental.methods.map((m) => m.signature)).not.toContain(null);
  });

  it('marks each constructor that runs it changed, with that constructor’s own counters', () => {
    const changed = diff.incremental.methods.map((m) => `${m.class}.${m.name}${m.signature}`).sort();
    expect(changed).toEqual([
      `${ALERTS}.<init>(Ldemo/inventory/Stock;)V`,
      `${STOCK}.<init>(I)V`,
      `${STOCK}.<init>(Ljava/lang/String;)V`,
    ]);
    for (const method of diff.incremental.methods) {
      const theirs = jacocoMethod(method.class ?? '', method.signature ?? '');
      for (const kind of ['instruction', 'line', 'method'] as const) {
        expect(method.counters[kind], `${method.class}.${method.signature} ${kind}`).toEqual(theirs.counters[kind]);
      }
      expect(method.status).toBe('modified');
      // The initialiser's changed line is the constructor's: it is what blame names the author by.
      expect(method.changedLines).toEqual([method.class === STOCK ? 7 : 8]);
    }
  });

  it('counts each constructor once in the totals: JaCoCo’s counters of exactly those constructors', () => {
    const runners = [
      jacocoMethod(STOCK, '(Ljava/lang/String;)V'),
      jacocoMethod(STOCK, '(I)V'),
      jacocoMethod(ALERTS, '(Ldemo/inventory/Stock;)V'),
    ];
    const totals: Counters = diff.incremental.totals;
    for (const kind of ['instruction', 'line', 'method', 'complexity'] as const) {
      expect(totals[kind], kind).toEqual(sumOf(runners, kind));
    }
    // Stock ran (its (String) constructor did), Alerts ran.
    expect(totals.class).toEqual({ covered: 2, missed: 0 });
  });
});
