export { canonicalJson, digestArguments } from './canonicalJson.js';
export { createStateCodec, DEFAULT_MAX_STATE_TOKEN_BYTES, DEFAULT_STATE_TTL_SECONDS } from './codec.js';
export type { StateBinding, StateCodec, StateCodecOptions } from './codec.js';
export {
  createEphemeralKeyRing,
  createKeyRing,
  EPHEMERAL_KEY_WARNING,
  generateStateKey,
  loadKeyRing,
  parseStateKeys,
} from './keyRing.js';
export type { KeyRing, KeyRingOptions, LoadedKeyRing, LoadKeyRingOptions, StateKey } from './keyRing.js';
export { isStateRejectedError, StateRejectedError } from './stateRejectedError.js';
export type { StateRejectReason } from './stateRejectedError.js';
