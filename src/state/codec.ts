import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import { ModelInputError } from '../errors.js';
import type { KeyRing } from './keyRing.js';
import { KID_PATTERN } from './keyRing.js';
import { StateRejectedError } from './stateRejectedError.js';

/** What a token is bound to: it opens only for the same principal, method, tool and arguments. */
export interface StateBinding {
  principal: string;
  method: string;
  tool: string;
  argumentsDigest: string;
}

export interface StateCodecOptions {
  keyRing: KeyRing;
  /** Lifetime of a sealed token; default 300. */
  ttlSeconds?: number;
  /** Largest token sealed or accepted; default 8192. */
  maxTokenBytes?: number;
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
}

/** An opened token: its payload, plus the unique id and expiry that single use is enforced on. */
export interface OpenedState<T> {
  payload: T;
  /** Random, unique per sealed token (128 bits, base64url); never shown to the client in the clear. */
  id: string;
  /** When the token expires, in epoch milliseconds: a consumed id need not be remembered past it. */
  expiresAtMs: number;
}

export interface StateCodec<T> {
  seal(binding: StateBinding, payload: T): string;
  /** The payload of a verified token (see `openState` for its id and expiry). */
  open(token: unknown, binding: StateBinding): T;
  openState(token: unknown, binding: StateBinding): OpenedState<T>;
  readonly ttlSeconds: number;
}

export const DEFAULT_STATE_TTL_SECONDS = 300;
export const DEFAULT_MAX_STATE_TOKEN_BYTES = 8192;

const VERSION = 'mmi1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;
const ID_BYTES = 16;
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

interface SealedClaims {
  v: 1;
  /** Unique id: the single-use store consumes it when a round accepts the token. */
  jti: string;
  prn: string;
  mth: string;
  tool: string;
  arg: string;
  iat: number;
  exp: number;
  p?: unknown;
}

/**
 * Seals request state into an opaque, authenticated, encrypted token:
 * `mmi1.<kid>.<base64url(iv)>.<base64url(ciphertext || tag)>`, with `mmi1.<kid>`
 * as additional authenticated data. Nothing inside is readable by the client.
 */
export function createStateCodec<T>(options: StateCodecOptions): StateCodec<T> {
  const { keyRing } = options;
  const ttlSeconds = positiveInteger('ttlSeconds', options.ttlSeconds ?? DEFAULT_STATE_TTL_SECONDS);
  const maxTokenBytes = positiveInteger('maxTokenBytes', options.maxTokenBytes ?? DEFAULT_MAX_STATE_TOKEN_BYTES);
  const now = options.now ?? Date.now;
  const nowSeconds = (): number => Math.floor(now() / 1000);

  function seal(binding: StateBinding, payload: T): string {
    const iat = nowSeconds();
    const claims: SealedClaims = {
      v: 1,
      jti: randomBytes(ID_BYTES).toString('base64url'),
      prn: binding.principal,
      mth: binding.method,
      tool: binding.tool,
      arg: binding.argumentsDigest,
      iat,
      exp: iat + ttlSeconds,
      p: payload,
    };
    const plaintext = Buffer.from(JSON.stringify(claims), 'utf8');
    // Base64 only grows the payload: refuse before encrypting something hopeless.
    if (plaintext.length > maxTokenBytes) {
      throw new StateRejectedError('oversize');
    }
    const { kid, key } = keyRing.mintKey;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(kid));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    const token = `${VERSION}.${kid}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
    if (token.length > maxTokenBytes) {
      throw new StateRejectedError('oversize');
    }
    return token;
  }

  function openState(token: unknown, binding: StateBinding): OpenedState<T> {
    if (typeof token !== 'string') {
      throw new StateRejectedError('malformed');
    }
    // Length first: nothing is decoded or decrypted for an oversized token.
    if (token.length > maxTokenBytes) {
      throw new StateRejectedError('oversize');
    }
    const parts = token.split('.');
    if (parts.length !== 4) {
      throw new StateRejectedError('malformed');
    }
    const [version, kid, ivText, sealedText] = parts as [string, string, string, string];
    if (version !== VERSION || !KID_PATTERN.test(kid)) {
      throw new StateRejectedError('malformed');
    }
    const iv = decodeBase64Url(ivText);
    const sealed = decodeBase64Url(sealedText);
    if (iv === undefined || iv.length !== IV_BYTES || sealed === undefined || sealed.length <= TAG_BYTES) {
      throw new StateRejectedError('malformed');
    }
    const stateKey = keyRing.get(kid);
    if (stateKey === undefined) {
      throw new StateRejectedError('unknown_key');
    }
    let plaintext: Buffer;
    try {
      const decipher = createDecipheriv(ALGORITHM, stateKey.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(kid));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      plaintext = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
    } catch (error) {
      throw new StateRejectedError('bad_tag', { cause: error });
    }
    const claims = parseClaims(plaintext);
    if (nowSeconds() > claims.exp) {
      throw new StateRejectedError('expired');
    }
    // The four bound claims compared at once (one digest each side); only a mismatch looks for which one it was.
    const sealedTo = [claims.prn, claims.mth, claims.tool, claims.arg];
    const asked = [binding.principal, binding.method, binding.tool, binding.argumentsDigest];
    if (!safeEqual(JSON.stringify(sealedTo), JSON.stringify(asked))) {
      if (!safeEqual(claims.prn, binding.principal)) {
        throw new StateRejectedError('principal');
      }
      if (!safeEqual(claims.mth, binding.method)) {
        throw new StateRejectedError('method');
      }
      if (!safeEqual(claims.tool, binding.tool)) {
        throw new StateRejectedError('tool');
      }
      throw new StateRejectedError('arguments');
    }
    return { payload: claims.p as T, id: claims.jti, expiresAtMs: claims.exp * 1000 };
  }

  const open = (token: unknown, binding: StateBinding): T => openState(token, binding).payload;
  return Object.freeze({ seal, open, openState, ttlSeconds });
}

function aad(kid: string): Buffer {
  return Buffer.from(`${VERSION}.${kid}`, 'ascii');
}

/** Strict, canonical base64url without padding; anything else is `undefined`. */
function decodeBase64Url(text: string): Buffer | undefined {
  if (!BASE64URL_PATTERN.test(text) || text.length % 4 === 1) {
    return undefined;
  }
  const bytes = Buffer.from(text, 'base64url');
  // Reject encodings with non-zero unused bits, so each token has one spelling.
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function parseClaims(plaintext: Buffer): SealedClaims {
  let value: unknown;
  try {
    value = JSON.parse(plaintext.toString('utf8'));
  } catch (error) {
    throw new StateRejectedError('malformed', { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StateRejectedError('malformed');
  }
  const claims = value as Record<string, unknown>;
  const stringsOk = ['prn', 'mth', 'tool', 'arg'].every((name) => typeof claims[name] === 'string');
  const timesOk = Number.isSafeInteger(claims.iat) && Number.isSafeInteger(claims.exp);
  const idOk = typeof claims.jti === 'string' && ID_PATTERN.test(claims.jti);
  if (claims.v !== 1 || !stringsOk || !timesOk || !idOk) {
    throw new StateRejectedError('malformed');
  }
  return claims as unknown as SealedClaims;
}

/** Constant-time string equality: compares SHA-256 digests so lengths do not leak either. */
function safeEqual(actual: string, expected: string): boolean {
  const a = createHash('sha256').update(actual, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ModelInputError('config_invalid', `state codec ${name} must be a positive integer`);
  }
  return value;
}
