import type { Tree } from 'web-tree-sitter';
import { createParser } from './grammars.ts';
import { javaMethods } from './java.ts';
import { scanScriptMethods } from './js-scan/scan.ts';
import { kotlinMethods } from './kotlin.ts';
import { languageOfPath } from './language.ts';
import { otherLanguageMethods } from './other-languages.ts';
import { parseWithinBudget } from './parse-budget.ts';
import { HASH_ALL, type HashFilter, type SourceLanguage, type SourceMethod } from './types.ts';

/**
 * Methods of one source file, sorted by start line: JavaScript and TypeScript by the scanner
 * (js-scan/), tree-sitter for the other languages and whatever the scanner hands over.
 */
export async function extractMethods(
  language: SourceLanguage,
  source: string,
  path = '',
  hashed: HashFilter = HASH_ALL,
): Promise<SourceMethod[]> {
  if (language === 'javascript' || language === 'typescript') {
    const scanned = scanScriptMethods(source, hashed, language === 'typescript');
    if (scanned) return scanned;
  }
  return parseMethods(language, source, path, hashed);
}

/** Methods of one source file by tree-sitter, sorted by start line (ParseBudgetExceeded on source it cannot recover from in time). */
export async function parseMethods(
  language: SourceLanguage,
  source: string,
  path = '',
  hashed: HashFilter = HASH_ALL,
): Promise<SourceMethod[]> {
  const parser = await createParser(language);
  let tree: Tree;
  try {
    tree = parseWithinBudget(parser, source);
  } finally {
    parser.delete();
  }
  try {
    return methodsOfTree(language, tree, source, path, hashed);
  } finally {
    tree.delete();
  }
}

/** Methods of a parsed source file, sorted by start line. */
export function methodsOfTree(
  language: SourceLanguage,
  tree: Tree,
  source: string,
  path: string,
  hashed: HashFilter,
): SourceMethod[] {
  if (language === 'java') return javaMethods(tree, source, hashed);
  if (language === 'kotlin') return kotlinMethods(tree, source, path, hashed);
  return otherLanguageMethods(language, tree, source, hashed);
}

/** Methods of a file chosen by its extension; an unsupported language has none. */
export async function extractMethodsOfPath(
  path: string,
  source: string,
  hashed: HashFilter = HASH_ALL,
): Promise<SourceMethod[]> {
  const language = languageOfPath(path);
  return language ? extractMethods(language, source, path, hashed) : [];
}
