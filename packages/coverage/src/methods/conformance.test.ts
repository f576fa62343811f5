import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractMethodsOfPath } from './extract.ts';
import type { SourceMethod } from './types.ts';

// Method names and lines as the real tools reported them for the committed fixture projects
// (packages/coverage/fixtures, made by scripts/make-fixtures.sh from scripts/fixtures/<tool>/v2).
const repoRoot = join(import.meta.dirname, '../../../..');
const fixtures = join(repoRoot, 'packages/coverage/fixtures');
const sources = (tool: string) => join(repoRoot, 'scripts/fixtures', tool, 'v2');

async function methodsOf(tool: string, path: string): Promise<SourceMethod[]> {
  return extractMethodsOfPath(path, readFileSync(join(sources(tool), path), 'utf8'));
}

const LAMBDA_OWNER: Record<string, string> = { new: '<init>', static: '<clinit>' };
const xmlText = (s: string) => s.replaceAll('&lt;', '<').replaceAll('&gt;', '>');

/**
 * Checks that every method of a JaCoCo XML is one of ours with its class, name and descriptor (a
 * lambda by its enclosing method; an anonymous class's constructor and a field initialiser have
 * no descriptor of ours), its line inside our range. Sources under `root` by package path.
 * Returns how many methods were checked.
 */
async function jacocoMethodsFound(xml: string, root: string): Promise<number> {
  let checked = 0;
  for (const pkg of xml.matchAll(/<package name="([^"]*)">(.*?)<\/package>/g)) {
    const classes = [...(pkg[2] ?? '').matchAll(/<class name="([^"]+)" sourcefilename="([^"]+)">(.*?)<\/class>/g)];
    for (const [, cls, file, body] of classes) {
      const path = `${pkg[1]}/${file}`;
      const ours = await extractMethodsOfPath(path, readFileSync(join(root, path), 'utf8'));
      for (const [, rawName, desc, line] of (body ?? '').matchAll(
        /<method name="([^"]+)" desc="([^"]+)" line="(\d+)"/g,
      )) {
        const name = xmlText(rawName ?? '');
        const lambda = /^lambda\$([^$]+)\$\d+$/.exec(name)?.[1];
        const wanted = lambda === undefined ? name : (LAMBDA_OWNER[lambda] ?? lambda);
        const owners = ours.filter(
          (m) =>
            m.class === cls &&
            m.name === wanted &&
            (lambda !== undefined || m.signature === null || m.signature === desc),
        );
        const at = Number(line);
        expect(
          owners.some((m) => m.startLine <= at && at <= m.endLine),
          `${cls}.${name}${desc} at line ${at} in ${JSON.stringify(owners.map((m) => [m.startLine, m.endLine]))}`,
        ).toBe(true);
        checked++;
      }
    }
  }
  return checked;
}

describe('method ranges agree with the coverage tools on the fixture projects', () => {
  it('JaCoCo: every reported method is found with its class, name and descriptor, its line inside', async () => {
    const xml = readFileSync(join(fixtures, 'jacoco/jacoco.xml'), 'utf8');
    expect(await jacocoMethodsFound(xml, join(sources('jacoco'), 'src/main/java'))).toBeGreaterThan(20);
  });

  it('JaCoCo: so on twelve seeded projects of every construct it names (scripts/fixtures/java-random)', async () => {
    const seeds = readdirSync(join(fixtures, 'java-random'));
    let checked = 0;
    for (const seed of seeds) {
      const project = join(fixtures, 'java-random', seed);
      checked += await jacocoMethodsFound(readFileSync(join(project, 'jacoco.xml'), 'utf8'), join(project, 'src'));
    }
    expect([seeds.length, checked]).toEqual([12, expect.any(Number)]);
    expect(checked).toBeGreaterThan(400);
  });

  it('Go: `go tool cover -func` names each function at the line it starts', async () => {
    const listing = readFileSync(join(fixtures, 'go/cover-count-func.txt'), 'utf8');
    let checked = 0;
    for (const [, file, line, name] of listing.matchAll(/^example\.com\/fixture\/(\S+?):(\d+):\s+(\S+)/gm)) {
      const ours = await methodsOf('go', file ?? '');
      expect(
        ours.map((m) => [m.name, m.startLine]),
        `${file}:${line} ${name}`,
      ).toContainEqual([name, Number(line)]);
      checked++;
    }
    expect(checked).toBeGreaterThan(4);
  });

  it('C: lcov’s FN records (gcc) name each function at the line it starts', async () => {
    const lcov = readFileSync(join(fixtures, 'c/lcov.info'), 'utf8');
    let checked = 0;
    for (const record of lcov.split('end_of_record')) {
      const file = /^SF:(.*)$/m.exec(record)?.[1];
      if (!file) continue;
      const path = file.slice(file.indexOf('/src/') + 1);
      const ours = await methodsOf('c', path);
      for (const [, line, name] of record.matchAll(/^FN:(\d+),(.+)$/gm)) {
        expect(
          ours.map((m) => [m.name, m.startLine]),
          `${path}:${line} ${name}`,
        ).toContainEqual([name, Number(line)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('JavaScript: c8’s functions start where ours do; V8 names a constructor after its class', async () => {
    const istanbul = JSON.parse(readFileSync(join(fixtures, 'js/coverage-final.json'), 'utf8')) as Record<
      string,
      { path: string; fnMap: Record<string, { name: string; loc: { start: { line: number } } }> }
    >;
    let checked = 0;
    const files = readdirSync(join(sources('js'), 'src')).map((f) => `src/${f}`);
    for (const entry of Object.values(istanbul)) {
      const path = files.find((f) => entry.path.endsWith(`/${f}`));
      if (!path) continue;
      const ours = await methodsOf('js', path);
      for (const fn of Object.values(entry.fnMap)) {
        // c8 reports a whole module without functions as `(empty-report)`.
        if (fn.name === '(empty-report)') continue;
        const line = fn.loc.start.line;
        const match = ours.find(
          (m) => m.startLine === line && (m.name === fn.name || (m.name === 'constructor' && m.class === fn.name)),
        );
        expect(match, `${path}:${line} ${fn.name}`).toBeDefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
