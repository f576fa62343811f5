// The program c8 records for the LCOV benchmark: the TypeScript compiler (a copy made by lcov.sh, so c8 does
// not skip it as a node_modules file) type-checking and printing the coverage package.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ts = createRequire(import.meta.url)(process.argv[2]);
const root = new URL('../../packages/coverage/src/', import.meta.url).pathname;
const files = readdirSync(root, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(root, f));
const program = ts.createProgram(files, {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
});
const diagnostics = ts.getPreEmitDiagnostics(program);
const printer = ts.createPrinter();
let printed = 0;
for (const file of program.getSourceFiles().slice(0, 40)) printed += printer.printFile(file).length;
console.log(`type-checked ${files.length} files: ${diagnostics.length} diagnostics, ${printed} chars printed`);
