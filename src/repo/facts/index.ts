export { computeRepoFacts, MAX_MANIFEST_READS, rebaseFacts } from './repoFacts.js';
export type { FactsInput } from './repoFacts.js';
export { measureSizes, MAX_SIZED } from './sizes.js';
export { buildLanguageIndex, languageOfPath, loadLanguageIndex } from './languageData.js';
export type { LanguageIndex, LanguageInfo, LanguageType } from './languageData.js';
export { isDocumentationPath, isGeneratedPath, isVendoredPath, pathKindOf } from './pathKinds.js';
export type { PathKind } from './pathKinds.js';
export * from './types.js';
