export {
  createSecretFileFilter,
  isDefaultSecretFile,
  SECRET_FILE_RULES,
  type SecretFileFilter,
  type SecretFileRule,
} from './secretFiles.js';
export {
  applyFindings,
  formatRedactionMarker,
  redactLines,
  redactText,
  redactTexts,
  scanText,
  scanWhole,
  type CutText,
  type RedactedLines,
  type RedactedText,
  type SecretFinding,
} from './scanner.js';
export { redactRequest, type RedactedRequest } from './requestRedaction.js';
