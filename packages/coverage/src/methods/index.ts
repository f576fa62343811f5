export { extractMethods, extractMethodsOfPath } from './extract.ts';
export { loadLanguage } from './grammars.ts';
export { languageOfPath } from './language.ts';
export { ParseBudgetExceeded, setParseBudgetBase } from './parse-budget.ts';
export { HASH_ALL, type HashFilter, SOURCE_LANGUAGES, type SourceLanguage, type SourceMethod } from './types.ts';
