import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/check-i18n.mjs (part of `npm run lint`): hard-coded words in components fail, texts from a texts.ts pass.
const repo = join(import.meta.dirname, '../../../..');
const script = join(repo, 'scripts/check-i18n.mjs');
const fixtures = join(repo, 'scripts/fixtures/i18n');

function check(dir: string) {
  const run = spawnSync(process.execPath, [script, dir], { cwd: repo, encoding: 'utf8' });
  const hits = run.stdout.split('\n').filter((line) => line.includes('hard-coded text "'));
  return { status: run.status, hits };
}

describe('check-i18n', () => {
  let scratch: string | null = null;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  });

  it('reports each hard-coded text of the bad fixture with its file and line, and fails', () => {
    const { status, hits } = check(join(fixtures, 'hard-coded'));
    expect(status).toBe(1);
    expect(hits).toHaveLength(11);
    expect(hits[0]).toMatch(/TeamScreen\.tsx:9: hard-coded text "Teams"$/);
    expect(hits.some((h) => h.endsWith(':13: hard-coded text "Team saved."'))).toBe(true);
    expect(hits.some((h) => h.endsWith(':14: hard-coded text "团队"'))).toBe(true);
    // Commands in code, an example address and the brand name are not reported.
    expect(hits.join('\n')).not.toMatch(/sextant upload|npm run demo|zentao\.example|"Sextant"/);
  });

  it('passes the same screen when its texts come from a texts file', () => {
    expect(check(join(fixtures, 'translated'))).toEqual({ status: 0, hits: [] });
  });

  it('catches a string added to a user-facing prop of an otherwise clean file', () => {
    scratch = mkdtempSync(join(tmpdir(), 'sextant-i18n-'));
    writeFileSync(join(scratch, 'Clean.tsx'), 'export const A = ({ t }) => <input placeholder={t.name} />;\n');
    expect(check(scratch).status).toBe(0);
    writeFileSync(join(scratch, 'Dirty.tsx'), 'export const B = () => (\n  <input placeholder="Name" />\n);\n');
    const { status, hits } = check(scratch);
    expect(status).toBe(1);
    expect(hits).toEqual([expect.stringMatching(/Dirty\.tsx:2: hard-coded text "Name"$/)]);
  });
});
