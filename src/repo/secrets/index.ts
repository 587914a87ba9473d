export {
  createSecretFileFilter,
  isDefaultSecretFile,
  SECRET_FILE_RULES,
  type SecretFileFilter,
  type SecretFileRule,
} from './secretFiles.js';
export {
  formatRedactionMarker,
  redactText,
  redactTexts,
  scanText,
  type RedactedText,
  type SecretFinding,
} from './scanner.js';
export { redactRequest, type RedactedRequest } from './requestRedaction.js';
