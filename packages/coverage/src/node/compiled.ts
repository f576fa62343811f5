import { existsSync, readFileSync } from 'node:fs';
import { installCompiledLineReader } from '../formats/cobertura-lines-wasm.ts';
import { installCompiledTokenizer } from '../methods/js-scan/wasm-tokens.ts';

/**
 * A module compiled to WebAssembly by scripts/build.mjs from assembly/NAME.ts: beside the bundle
 * in a built CLI, else in this package's dist folder (built on `npm install`); null when not built.
 */
function compiledBytes(name: string): Uint8Array | null {
  const here = import.meta.url;
  const file = new URL(here.endsWith('.ts') ? `../../dist/${name}.wasm` : `./${name}.wasm`, here);
  return existsSync(file) ? readFileSync(file) : null;
}

let tokenizerLoaded: boolean | null = null;

/**
 * Installs the JavaScript tokenizer compiled to WebAssembly (assembly/tokens.ts) for this thread.
 * False when it is not built (or SEXTANT_JS_TOKENS=1 asks for the JavaScript one): the scanner
 * then tokenizes in JavaScript, with the same answers.
 */
export function loadCompiledTokenizer(): boolean {
  if (tokenizerLoaded !== null) return tokenizerLoaded;
  tokenizerLoaded = false;
  if (process.env.SEXTANT_JS_TOKENS === '1') return tokenizerLoaded;
  const bytes = compiledBytes('tokens');
  if (bytes) tokenizerLoaded = installCompiledTokenizer(bytes);
  return tokenizerLoaded;
}

let lineReaderLoaded: boolean | null = null;

/**
 * Installs the Cobertura line reader compiled to WebAssembly (assembly/cobertura-lines.ts) for this
 * thread. False when it is not built (or SEXTANT_JS_LINES=1 asks for JavaScript alone): the
 * parser then reads every line in JavaScript, with the same answers.
 */
export function loadCompiledLineReader(): boolean {
  if (lineReaderLoaded !== null) return lineReaderLoaded;
  lineReaderLoaded = false;
  if (process.env.SEXTANT_JS_LINES === '1') return lineReaderLoaded;
  const bytes = compiledBytes('cobertura-lines');
  if (bytes) lineReaderLoaded = installCompiledLineReader(bytes);
  return lineReaderLoaded;
}
