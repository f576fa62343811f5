import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFiles, globToRegExp } from '../src/glob.ts';

describe('globToRegExp', () => {
  const matches = (glob: string, path: string) => globToRegExp(glob).test(path);
  it('* and ? stay within one directory', () => {
    expect(matches('*.xml', 'jacoco.xml')).toBe(true);
    expect(matches('*.xml', 'site/jacoco.xml')).toBe(false);
    expect(matches('cov?.info', 'cov1.info')).toBe(true);
    expect(matches('cov?.info', 'cov/.info')).toBe(false);
    expect(matches('cov?.info', 'cov12.info')).toBe(false);
  });
  it('** crosses any number of directories, none included', () => {
    expect(matches('**/*.xml', 'jacoco.xml')).toBe(true);
    expect(matches('**/*.xml', 'a/b/c/jacoco.xml')).toBe(true);
    expect(matches('target/**/jacoco.xml', 'target/jacoco.xml')).toBe(true);
    expect(matches('target/**/jacoco.xml', 'target/site/jacoco/jacoco.xml')).toBe(true);
    expect(matches('target/**', 'target/a/b')).toBe(true);
    expect(matches('target/**/jacoco.xml', 'other/jacoco.xml')).toBe(false);
  });
  it('takes every other character literally', () => {
    expect(matches('a+b(1).[x]', 'a+b(1).[x]')).toBe(true);
    expect(matches('a.xml', 'abxml')).toBe(false);
  });
});

describe('findFiles', () => {
  const root = mkdtempSync(join(tmpdir(), 'sx-glob-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const touch = (path: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
  };
  for (const f of [
    'a.xml',
    'm1/target/site/jacoco.xml',
    'm2/target/jacoco.xml',
    'm2/target/x.json',
    'node_modules/p/x.xml',
    '.git/x.xml',
  ]) {
    touch(f);
  }

  it('walks below the fixed prefix only as deep as the pattern reaches, skipping .git and node_modules', async () => {
    const rel = async (glob: string) => (await findFiles(glob, root)).map((p) => p.slice(root.length + 1));
    expect(await rel('**/*.xml')).toEqual(['a.xml', 'm1/target/site/jacoco.xml', 'm2/target/jacoco.xml']);
    expect(await rel('*/target/*.xml')).toEqual(['m2/target/jacoco.xml']);
    expect(await rel('m2/target/x.json')).toEqual(['m2/target/x.json']);
    expect(await rel('missing/**/*.xml')).toEqual([]);
    expect(await findFiles(join(root, 'm1/**/*.xml'), '/')).toEqual([join(root, 'm1/target/site/jacoco.xml')]);
  });
});
