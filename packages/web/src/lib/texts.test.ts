import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SCREENS } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { screenTexts } from './screen-texts.ts';

// Issue 7: every text exists in English and in Chinese. The types already demand it; this test also
// catches a key added with a cast, an empty translation, or a file the type checker never saw.
const root = join(import.meta.dirname, '..');

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return textFiles(path);
    return /(^|-)texts\.ts$/.test(entry.name) ? [path] : [];
  });
}

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of leaves(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

describe('translations', () => {
  const files = textFiles(root);

  it('finds the text files', () => {
    expect(files.length).toBeGreaterThan(1);
  });

  it.each(files.map((f) => [relative(root, f), f]))('%s has the same non-empty keys in en and zh', async (_, file) => {
    const module = (await import(file)) as Record<string, unknown>;
    const sets = Object.values(module).filter(
      (v): v is { en: Tree; zh: Tree } => typeof v === 'object' && v !== null && 'en' in v && 'zh' in v,
    );
    expect(sets.length).toBeGreaterThan(0);
    for (const texts of sets) {
      const en = leaves(texts.en);
      const zh = leaves(texts.zh);
      expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, value] of [...en, ...zh]) expect(value.trim(), key).not.toBe('');
    }
  });

  it('names every screen in both languages', () => {
    for (const screen of SCREENS) {
      expect(Object.keys(screenTexts.en)).toContain(screen.name);
      expect(Object.keys(screenTexts.zh)).toContain(screen.name);
    }
  });
});
