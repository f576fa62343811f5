import type { Language, Parser } from 'web-tree-sitter';
import type { SourceLanguage } from './types.ts';

// @vscode/tree-sitter-wasm is built with a current tree-sitter; it lacks C and Kotlin, which
// come from tree-sitter-wasms (ABI 14, still loadable by web-tree-sitter 0.25).
const GRAMMAR_FILES: Record<SourceLanguage, string> = {
  java: '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm',
  kotlin: 'tree-sitter-wasms/out/tree-sitter-kotlin.wasm',
  javascript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm',
  typescript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm',
  tsx: '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm',
  python: '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
  go: '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm',
  c: 'tree-sitter-wasms/out/tree-sitter-c.wasm',
  cpp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm',
};

type TreeSitter = typeof import('web-tree-sitter');

// Loaded on first use: a run whose diff touches no source file never pays for the runtime.
let runtime: Promise<TreeSitter> | null = null;
const languages = new Map<SourceLanguage, Promise<Language>>();

function treeSitter(): Promise<TreeSitter> {
  if (!runtime) {
    const init = import('web-tree-sitter').then(async (module) => {
      await module.Parser.init();
      return module;
    });
    runtime = init;
    init.catch(() => {
      if (runtime === init) runtime = null;
    });
  }
  return runtime;
}

/**
 * Where a grammar's wasm lives: a filesystem path under Node (web-tree-sitter reads strings with
 * fs there), the resolved URL in a browser. Resolved at run time, so a bundle keeps the grammars
 * as files in node_modules instead of inlining them.
 */
function grammarLocation(language: SourceLanguage): string {
  const url = import.meta.resolve(GRAMMAR_FILES[language]);
  if (!url.startsWith('file:')) return url;
  const path = decodeURIComponent(new URL(url).pathname);
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

/** The grammar for a language, loaded once per process. */
export function loadLanguage(language: SourceLanguage): Promise<Language> {
  let loaded = languages.get(language);
  if (!loaded) {
    loaded = treeSitter().then((module) => module.Language.load(grammarLocation(language)));
    // A failed load is not cached, so a later call can retry.
    loaded.catch(() => languages.delete(language));
    languages.set(language, loaded);
  }
  return loaded;
}

/** A parser set to the language (parsers are cheap; the grammar is the cached part). */
export async function createParser(language: SourceLanguage): Promise<Parser> {
  const [module, grammar] = await Promise.all([treeSitter(), loadLanguage(language)]);
  const parser = new module.Parser();
  parser.setLanguage(grammar);
  return parser;
}
