import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foreignExecClasses, jacocoClassId, parseJacocoExec } from '@sextant/coverage';
import { classIdsOfFolder } from '@sextant/coverage/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../tools/test-support/machine.ts';
import { buildShop, jacocoToolsMissing, referenceExec } from './support/jacoco-jvm.ts';

const noJacoco = skipWithout('class ids of the real JaCoCo agent', jacocoToolsMissing);

describe.skipIf(noJacoco)('JaCoCo class ids of class files (issue 38)', () => {
  let dir: string;
  let shop: { classes: string; agent: string };
  let exec: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sx-class-ids-'));
    shop = buildShop(dir);
    exec = referenceExec(shop, dir, 5);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each class file the id the agent wrote for it in the exec file', async () => {
    const ids = await classIdsOfFolder(shop.classes);
    const data = parseJacocoExec(exec);
    const ours = data.classes.filter((c) => ids.has(c.name));
    expect(ours.map((c) => c.name).sort()).toEqual(['demo/Main', 'demo/Shop']);
    for (const entry of ours) expect(ids.get(entry.name), entry.name).toBe(entry.id);
    expect(foreignExecClasses(data, ids)).toEqual([]);
  });

  it('tells exec data of another build of a class from this build’s', async () => {
    const data = parseJacocoExec(exec);
    // Shop rebuilt with a changed body: same name, other bytes, other id.
    const source = join(dir, 'src/demo/Shop.java');
    writeFileSync(source, readFileSync(source, 'utf8').replace('n * 9', 'n * 8'));
    const rebuilt = join(dir, 'rebuilt');
    execFileSync('javac', ['--release', '11', '-g', '-d', rebuilt, source]);
    const ids = await classIdsOfFolder(rebuilt);
    expect(ids.get('demo/Shop')).toBe(jacocoClassId(readFileSync(join(rebuilt, 'demo/Shop.class'))));
    expect(foreignExecClasses(data, ids).map((c) => c.name)).toEqual(['demo/Shop']);
  });

  it('gives a Java 9 class file the id the agent gives it (JaCoCo sums it with the version byte of Java 8)', async () => {
    const classes = join(dir, 'classes-9');
    const sources = ['Shop.java', 'Main.java'].map((file) => join(dir, 'src/demo', file));
    execFileSync('javac', ['--release', '9', '-g', '-d', classes, ...sources]);
    const destfile = join(dir, 'java9.exec');
    execFileSync('java', [`-javaagent:${shop.agent}=destfile=${destfile}`, '-cp', classes, 'demo.Main', '5'], {
      input: '',
    });
    const shopClass = readFileSync(join(classes, 'demo/Shop.class'));
    expect(shopClass[7]).toBe(53);
    const ids = await classIdsOfFolder(classes);
    const data = parseJacocoExec(readFileSync(destfile));
    const entry = data.classes.find((c) => c.name === 'demo/Shop');
    expect(ids.get('demo/Shop')).toBe(entry?.id);
    expect(foreignExecClasses(data, ids)).toEqual([]);
  });
});
