import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COUNTER_KINDS,
  type Coverage,
  CoverageError,
  mergeCoverage,
  mergeExecData,
  parseCoverage,
  parseJacocoExec,
  writeJacocoExec,
} from '@sextant/coverage';
import { DEBIAN_JACOCO_LIB, execToXml } from '@sextant/coverage/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../tools/test-support/machine.ts';
import { buildShop, jacocoToolsMissing, referenceExec } from './support/jacoco-jvm.ts';

const noJacoco = skipWithout('exec files of two JVMs with the real JaCoCo agent', jacocoToolsMissing);

/** JaCoCo's own Ant `merge` task over exec files: the reference for ours. */
function jacocoMerge(dir: string, execs: string[], out: string) {
  const jars = ['org.jacoco.ant.jar', 'org.jacoco.core.jar', 'org.jacoco.report.jar', 'org.jacoco.agent.jar']
    .concat(['asm.jar', 'asm-commons.jar', 'asm-tree.jar'])
    .map((jar) => `<pathelement location="${join(DEBIAN_JACOCO_LIB, jar)}"/>`)
    .join('');
  const files = execs.map((exec) => `<file file="${exec}"/>`).join('');
  const build = join(dir, 'merge.xml');
  writeFileSync(
    build,
    `<project default="m" xmlns:jacoco="antlib:org.jacoco.ant"><taskdef uri="antlib:org.jacoco.ant" resource="org/jacoco/ant/antlib.xml"><classpath>${jars}</classpath></taskdef><target name="m"><jacoco:merge destfile="${out}">${files}</jacoco:merge></target></project>`,
  );
  execFileSync('ant', ['-q', '-noinput', '-f', build]);
  return readFileSync(out);
}

const probesOf = (bytes: Uint8Array) =>
  Object.fromEntries(parseJacocoExec(bytes).classes.map((c) => [`${c.id} ${c.name}`, c.probes]));

describe.skipIf(noJacoco)('JaCoCo exec files of two JVMs', () => {
  let dir: string;
  let shop: { classes: string; agent: string };
  let runs: Buffer[];
  const report = async (exec: Uint8Array, name: string): Promise<Coverage> => {
    const work = join(dir, name);
    mkdirSync(work);
    const xml = await execToXml({ exec: Buffer.from(exec), classes: shop.classes, name: 'shop', workDir: work });
    return parseCoverage(readFileSync(xml), { format: 'jacoco' });
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sx-exec-merge-'));
    shop = buildShop(dir);
    // One JVM prices 5 (n > 10 false), the other 20 (true): each takes one branch of the same line.
    runs = [referenceExec(shop, dir, 5), referenceExec(shop, dir, 20)];
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each run: a session and the classes the agent saw, with their probes', () => {
    const first = parseJacocoExec(runs[0] as Buffer);
    expect(first.sessions).toHaveLength(1);
    const names = first.classes.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['demo/Shop', 'demo/Main']));
    expect(first.classes.every((c) => /^[0-9a-f]{16}$/.test(c.id))).toBe(true);
    // Written back, the bytes are JaCoCo's own (same blocks, same encoding).
    expect(Buffer.from(writeJacocoExec(first)).equals(runs[0] as Buffer)).toBe(true);
  });

  it('merges probe by probe as JaCoCo’s merge does, and the report over it is JaCoCo’s on all six counters', async () => {
    const ours = writeJacocoExec(mergeExecData(runs.map((run) => parseJacocoExec(run))));
    const paths = runs.map((run, i) => {
      const path = join(dir, `run-${i}.exec`);
      writeFileSync(path, run);
      return path;
    });
    const theirs = jacocoMerge(dir, paths, join(dir, 'jacoco-merged.exec'));
    expect(probesOf(ours)).toEqual(probesOf(theirs));
    const [fromOurs, fromTheirs] = await Promise.all([report(ours, 'ours'), report(theirs, 'theirs')]);
    for (const kind of COUNTER_KINDS) expect(fromOurs.counters[kind], kind).toEqual(fromTheirs.counters[kind]);
    const methods = (c: Coverage) =>
      c.files.flatMap((f) => f.classes.flatMap((k) => k.methods.map((m) => [k.name, m.name, m.counters])));
    expect(methods(fromOurs)).toEqual(methods(fromTheirs));
    const classes = (c: Coverage) => c.files.flatMap((f) => f.classes.map((k) => [k.name, k.counters]));
    expect(classes(fromOurs)).toEqual(classes(fromTheirs));
    // Main's loop (both branches in each run) and the price line's two: one run took each, so all covered.
    expect(fromOurs.counters.branch).toEqual({ covered: 4, missed: 0 });
  }, 120_000);

  it('the XML-only merge of the two runs is a range holding JaCoCo’s figure, needed on the shared line', async () => {
    const [a, b, both] = await Promise.all([
      report(runs[0] as Buffer, 'a'),
      report(runs[1] as Buffer, 'b'),
      report(writeJacocoExec(mergeExecData(runs.map((r) => parseJacocoExec(r)))), 'both'),
    ]);
    const merged = mergeCoverage([a, b]);
    for (const kind of COUNTER_KINDS) {
      const truth = both.counters[kind]?.covered ?? -1;
      const low = merged.counters[kind]?.covered ?? -1;
      const high = merged.bounds?.[kind]?.coveredAtMost ?? low;
      expect([low <= truth, truth <= high], kind).toEqual([true, true]);
    }
    // Each run covered one branch of `if (n > 10)`: the XML cannot say they were different ones.
    expect([merged.counters.branch?.covered, merged.bounds?.branch?.coveredAtMost]).toEqual([3, 4]);
    expect(both.counters.branch?.covered).toBe(4);
  }, 120_000);

  it('refuses data of another build of a class (same id, another probe count) clearly', () => {
    const run = parseJacocoExec(runs[0] as Buffer);
    const shop0 = run.classes.find((c) => c.name === 'demo/Shop');
    const other = { sessions: [], classes: [{ ...shop0!, probes: [true] }] };
    expect(() => mergeExecData([run, other])).toThrow(CoverageError);
    expect(() => mergeExecData([run, other])).toThrow(
      /demo\/Shop \(class id [0-9a-f]{16}\) has \d+ probes in one run and 1/,
    );
    const renamed = { sessions: [], classes: [{ ...shop0!, name: 'demo/Other' }] };
    expect(() => mergeExecData([run, renamed])).toThrow(/names demo\/Shop in one run and demo\/Other/);
  });

  it('names the offset of truncated or foreign data', () => {
    const cut = (runs[0] as Buffer).subarray(0, 30);
    expect(() => parseJacocoExec(cut, 'cut.exec')).toThrow(/cut\.exec at byte \d+: execution data ends inside/);
    expect(() => parseJacocoExec(Buffer.from('<?xml'), 'x.exec')).toThrow(/not JaCoCo execution data/);
  });
});
