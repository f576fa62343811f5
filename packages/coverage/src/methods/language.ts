import type { SourceLanguage } from './types.ts';

const BY_EXTENSION: Record<string, SourceLanguage> = {
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  go: 'go',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
};

/** TypeScript declaration files: `x.d.ts`, `x.d.mts`, `x.d.cts`. */
const DECLARATION_FILE = /\.d\.[cm]?ts$/i;

/**
 * The language of a source file by its extension, or null when methods cannot be read from it.
 * TypeScript declaration files are null: they hold no code (TypeScript refuses an implementation
 * in an ambient context), so no method of theirs can run; parsing them is slow (long declared
 * types) and in 8 of 3,000 of antd's found an arrow function that is not there.
 */
export function languageOfPath(path: string): SourceLanguage | null {
  if (DECLARATION_FILE.test(path)) return null;
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? null;
}
