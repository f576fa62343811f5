import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractorVersion, installedVersion } from './method-cache.ts';

const versionIn = (path: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../../../node_modules/${path}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

describe('extractorVersion', () => {
  it('reads the tree-sitter packages’ versions, also one whose exports leave out its package.json', () => {
    expect(installedVersion('web-tree-sitter', import.meta.url)).toBe(versionIn('web-tree-sitter'));
    expect(installedVersion('@vscode/tree-sitter-wasm', import.meta.url)).toBe(versionIn('@vscode/tree-sitter-wasm'));
    expect(installedVersion('no-such-package-for-sextant', import.meta.url)).toBeNull();
    expect(extractorVersion()).toMatch(/^[0-9a-f]{16}$/);
  });
});
