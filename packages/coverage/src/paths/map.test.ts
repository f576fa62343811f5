import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCoverage } from '../formats/parser.ts';
import { indexPaths, mapPaths, normalisePath } from './map.ts';

const lcov = (...paths: string[]) => parseCoverage(paths.map((p) => `SF:${p}\nDA:1,1\nend_of_record\n`).join(''));

describe('mapPaths', () => {
  it('maps JaCoCo package-relative paths into modules', () => {
    const coverage = parseCoverage(
      '<report name="r"><package name="com/acme"><sourcefile name="Calc.java"><line nr="1" mi="0" ci="1" mb="0" cb="0"/></sourcefile></package></report>',
    );
    const { coverage: mapped, unmappedFiles } = mapPaths(coverage, [
      'core/src/main/java/com/acme/Calc.java',
      'README.md',
    ]);
    expect(mapped.files.map((f) => f.path)).toEqual(['core/src/main/java/com/acme/Calc.java']);
    expect(unmappedFiles).toEqual([]);
  });

  it('strips Cobertura <sources> roots and absolute prefixes, Windows separators and ./', () => {
    const coverage = lcov('/home/ci/work/repo/src/a.c', 'C:\\ci\\repo\\lib\\b.c', './c.c');
    const { coverage: mapped } = mapPaths(coverage, ['src/a.c', 'lib/b.c', 'c.c'], {
      sourceRoots: ['/home/ci/work/repo'],
    });
    expect(mapped.files.map((f) => f.path)).toEqual(['src/a.c', 'lib/b.c', 'c.c']);
  });

  it('never maps ../ escapes and reports them unmapped', () => {
    const { coverage: mapped, unmappedFiles } = mapPaths(lcov('../../etc/passwd', 'src/../../x.c'), [
      'etc/passwd',
      'x.c',
    ]);
    expect(mapped.files).toEqual([]);
    expect(unmappedFiles).toEqual(['../../etc/passwd', 'src/../../x.c']);
  });

  it('reports ambiguous suffix matches instead of guessing', () => {
    const result = mapPaths(lcov('util/Strings.java'), ['a/src/util/Strings.java', 'b/src/util/Strings.java']);
    expect(result.unmappedFiles).toEqual(['util/Strings.java']);
    expect(result.ambiguousFiles).toEqual([
      { path: 'util/Strings.java', candidates: ['a/src/util/Strings.java', 'b/src/util/Strings.java'] },
    ]);
  });

  it('reads relative paths from the folder the report was made in first (a monorepo package)', () => {
    const files = ['src/a.js', 'packages/web/src/a.js', 'packages/api/src/a.js', 'packages/web/lib/only.js'];
    const result = mapPaths(lcov('src/a.js', 'lib/only.js', '/ci/repo/packages/api/src/a.js'), files, {
      baseDir: 'packages/web',
      sourceRoots: ['/ci/repo'],
    });
    expect(result.coverage.files.map((f) => f.path)).toEqual([
      'packages/web/src/a.js',
      'packages/web/lib/only.js',
      'packages/api/src/a.js',
    ]);
    expect(mapPaths(lcov('src/a.js'), files).coverage.files.map((f) => f.path)).toEqual(['src/a.js']);
  });

  it('takes the one of several same-suffix files that lies in the report’s folder (a module)', () => {
    const files = ['api/src/main/java/com/acme/Util.java', 'web/src/main/java/com/acme/Util.java'];
    const mapped = mapPaths(lcov('com/acme/Util.java'), files, { baseDir: 'web' });
    expect(mapped.coverage.files.map((f) => f.path)).toEqual(['web/src/main/java/com/acme/Util.java']);
    expect(mapPaths(lcov('com/acme/Util.java'), files).ambiguousFiles).toHaveLength(1);
  });

  it('looks relative paths up under the report file’s folder and its parents before baseDir and the top', () => {
    const files = ['src/util.js', 'packages/alpha/src/util.js', 'packages/beta/src/util.js'];
    const placed = (options: Parameters<typeof mapPaths>[2]) =>
      mapPaths(lcov('src/util.js'), files, options).coverage.files.map((f) => f.path);
    expect(placed({ reportDir: 'packages/alpha/coverage' })).toEqual(['packages/alpha/src/util.js']);
    expect(placed({ reportDir: 'packages/alpha/coverage', baseDir: 'packages/beta' })).toEqual([
      'packages/alpha/src/util.js',
    ]);
    expect(placed({ reportDir: 'reports', baseDir: 'packages/beta' })).toEqual(['packages/beta/src/util.js']);
    expect(placed({ reportDir: '' })).toEqual(['src/util.js']);
  });

  it('takes of several suffix matches the one under the report’s nearest folder, and names them all when none is', () => {
    const files = ['module-a/src/main/java/com/acme/Util.java', 'module-b/src/main/java/com/acme/Util.java'];
    const java = lcov('com/acme/Util.java');
    for (const module of ['module-a', 'module-b']) {
      const mapped = mapPaths(java, files, { reportDir: `${module}/target/site/jacoco` });
      expect(mapped.coverage.files.map((f) => f.path)).toEqual([`${module}/src/main/java/com/acme/Util.java`]);
    }
    const fromTop = mapPaths(java, indexPaths(files), { reportDir: 'target' });
    expect(fromTop.coverage.files).toEqual([]);
    expect(fromTop.ambiguousFiles).toEqual([{ path: 'com/acme/Util.java', candidates: files }]);
  });

  it('merges files that map to the same repository path', () => {
    const result = mapPaths(lcov('/ci/one/src/a.c', '/ci/two/src/a.c'), ['src/a.c']);
    expect(result.coverage.files).toHaveLength(1);
    expect(result.coverage.files[0]?.lines[0]?.hits).toBe(2);
  });

  it('normalises paths', () => {
    expect(normalisePath('.\\a\\\\b/./c')).toBe('a/b/c');
    expect(normalisePath('a/../b')).toBeNull();
    expect(normalisePath('./')).toBeNull();
  });

  it('normalises any path as splitting it into segments would (the fast path for normal ones included)', () => {
    const bySegments = (raw: string): string | null => {
      const parts = raw
        .replaceAll('\\', '/')
        .split('/')
        .filter((p) => p !== '' && p !== '.');
      return parts.includes('..') ? null : parts.join('/') || null;
    };
    const piece = fc.constantFrom('a', 'b.c', '.', '..', '', '.x', 'x.', '...', '/', '\\');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const raw = pieces.join('');
        expect(normalisePath(raw)).toBe(bySegments(raw));
      }),
      { numRuns: 2000 },
    );
  });
});
