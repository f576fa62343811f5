import { existsSync, readFileSync } from 'node:fs';
import { installCompiledTokenizer } from '../methods/js-scan/wasm-tokens.ts';

let loaded: boolean | null = null;

/**
 * Installs the JavaScript tokenizer compiled to WebAssembly (assembly/tokens.ts) for this thread:
 * beside the bundle in a built CLI, else in this package's dist folder (scripts/build.mjs puts it
 * there on `npm install`). False when it is not built (or SEXTANT_JS_TOKENS=1 asks for the
 * JavaScript one): the scanner then tokenizes in JavaScript, with the same answers.
 */
export function loadCompiledTokenizer(): boolean {
  if (loaded !== null) return loaded;
  loaded = false;
  if (process.env.SEXTANT_JS_TOKENS === '1') return loaded;
  const here = import.meta.url;
  const file = new URL(here.endsWith('.ts') ? '../../dist/tokens.wasm' : './tokens.wasm', here);
  if (existsSync(file)) loaded = installCompiledTokenizer(readFileSync(file));
  return loaded;
}
