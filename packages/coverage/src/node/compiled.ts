import { existsSync, readFileSync } from 'node:fs';
import { installCompiledLineReader } from '../formats/cobertura-lines-wasm.ts';
import { installCompiledTokenizer } from '../methods/js-scan/wasm-tokens.ts';

/** The modules scripts/build.mjs compiles from assembly/NAME.ts, what installs each, and the variable that leaves it out. */
const MODULES = {
  tokens: { install: installCompiledTokenizer, leftOutBy: 'SEXTANT_JS_TOKENS' },
  'cobertura-lines': { install: installCompiledLineReader, leftOutBy: 'SEXTANT_JS_LINES' },
} as const;

const loaded = new Map<keyof typeof MODULES, boolean>();

/**
 * Installs a compiled module for this thread, once: beside the bundle in a built CLI, else in this
 * package's dist folder (built on `npm install`). False when it is not built, or its variable is
 * 1: JavaScript then does its work, with the same answers.
 */
function loadCompiled(name: keyof typeof MODULES): boolean {
  const known = loaded.get(name);
  if (known !== undefined) return known;
  const { install, leftOutBy } = MODULES[name];
  const here = import.meta.url;
  const file = new URL(here.endsWith('.ts') ? `../../dist/${name}.wasm` : `./${name}.wasm`, here);
  const installed = process.env[leftOutBy] !== '1' && existsSync(file) && install(readFileSync(file));
  loaded.set(name, installed);
  return installed;
}

/** The JavaScript tokenizer compiled to WebAssembly (assembly/tokens.ts), for the scanner; see loadCompiled. */
export function loadCompiledTokenizer(): boolean {
  return loadCompiled('tokens');
}

/** The Cobertura line reader compiled to WebAssembly (assembly/cobertura-lines.ts); see loadCompiled. */
export function loadCompiledLineReader(): boolean {
  return loadCompiled('cobertura-lines');
}
