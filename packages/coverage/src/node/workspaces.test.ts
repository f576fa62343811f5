import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceFolders } from './workspaces.ts';

let top: string;

/** Writes the files at the top of a fresh folder and answers their list, as git would list them. */
function repository(files: Record<string, string>): string[] {
  top = mkdtempSync(join(tmpdir(), 'sextant-workspaces-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(top, path)), { recursive: true });
    writeFileSync(join(top, path), text);
  }
  return Object.keys(files);
}

afterEach(() => rmSync(top, { recursive: true, force: true }));

describe('workspaceFolders', () => {
  it('reads npm and yarn workspace globs against the folders holding a package.json', async () => {
    const files = repository({
      'package.json': JSON.stringify({ workspaces: { packages: ['packages/*', 'tools/**'] } }),
      'packages/a/package.json': '{}',
      'packages/a/src/x.js': '',
      'packages/a/fixtures/package.json': '{}',
      'tools/deep/b/package.json': '{}',
      'docs/package.json': '{}',
    });
    expect(await workspaceFolders(top, files)).toEqual(['packages/a', 'tools/deep/b']);
  });

  it('reads pnpm-workspace.yaml (exclusions left out) and Nx project.json folders', async () => {
    const files = repository({
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - \"!apps/skip\"\ncatalog:\n  - 'nope/*'\n",
      'apps/web/package.json': '{}',
      'nope/x/package.json': '{}',
      'libs/ui/project.json': '{}',
    });
    expect(await workspaceFolders(top, files)).toEqual(['apps/web', 'libs/ui']);
  });

  it('reads Maven modules (nested too), Gradle includes and go.work uses', async () => {
    const files = repository({
      'pom.xml': '<project><modules><module>core</module><module>./web/</module></modules></project>',
      'web/pom.xml': '<project><modules><module>api</module><module>../escape</module></modules></project>',
      'settings.gradle': "rootProject.name = 'x'\ninclude 'app', ':lib:core'\ninclude(\"kts\")\n",
      'go.work': 'go 1.22\n\nuse (\n\t./svc/a // the first\n\t./svc/b\n)\nuse ./tool\n',
      'svc/ignored/go.mod': 'module x',
    });
    expect(await workspaceFolders(top, files)).toEqual([
      'app',
      'core',
      'kts',
      'lib/core',
      'svc/a',
      'svc/b',
      'tool',
      'web',
      'web/api',
    ]);
  });

  it('takes every go.mod below the top without a go.work, and finds nothing in a plain repository', async () => {
    const files = repository({ 'go.mod': 'module top', 'svc/a/go.mod': 'module a', 'src/a.js': '' });
    expect(await workspaceFolders(top, files)).toEqual(['svc/a']);
  });
});
