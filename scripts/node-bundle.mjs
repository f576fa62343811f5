// esbuild options shared by the CLI bundle (scripts/build.mjs) and the benches that time the code
// as the CLI runs it (bench/bundled.ts).
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Grammars and runtimes load .wasm files relative to their own package at run time.
  external: ['web-tree-sitter', '@vscode/tree-sitter-wasm', 'tree-sitter-wasms', 'saxes'],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
};
