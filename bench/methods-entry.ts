// What the method-extraction benches run, bundled by bundled.ts as the CLI bundles it.
export { parseMethods } from '../packages/coverage/src/methods/extract.ts';
export { createParser } from '../packages/coverage/src/methods/grammars.ts';
export { scanScript, scanScriptMethods } from '../packages/coverage/src/methods/js-scan/scan.ts';
export { languageOfPath } from '../packages/coverage/src/methods/language.ts';
export { otherLanguageMethods } from '../packages/coverage/src/methods/other-languages.ts';
export { HASH_ALL } from '../packages/coverage/src/methods/types.ts';
export { loadCompiledTokenizer } from '../packages/coverage/src/node/compiled.ts';
