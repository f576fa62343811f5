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

/** The language of a source file by its extension, or null when methods cannot be read from it. */
export function languageOfPath(path: string): SourceLanguage | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? null;
}
