export { extractMethods, extractMethodsOfPath } from './extract.ts';
export { loadLanguage } from './grammars.ts';
export { languageOfPath } from './language.ts';
export { SOURCE_LANGUAGES, type SourceLanguage, type SourceMethod } from './types.ts';
