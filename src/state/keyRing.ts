import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { ModelInputError } from '../errors.js';

/** One AES-256-GCM key with the id that tokens carry. */
export interface StateKey {
  readonly kid: string;
  readonly key: Uint8Array;
}

/**
 * The keys a server seals and opens request state with. The first key mints new
 * tokens; every listed key opens them. To rotate, put the new key first and keep
 * the old one listed until tokens minted with it have expired.
 */
export interface KeyRing {
  readonly mintKey: StateKey;
  readonly kids: readonly string[];
  /** True when the key was generated for this process only. */
  readonly ephemeral: boolean;
  get(kid: string): StateKey | undefined;
}

export interface KeyRingOptions {
  ephemeral?: boolean;
}

export interface LoadKeyRingOptions {
  /** The raw value of `MCP_MODEL_INPUT_STATE_KEYS`, if set. */
  envValue?: string | undefined;
  /** A file of `kid:base64` entries; takes precedence over `envValue`. */
  filePath?: string | undefined;
}

export interface LoadedKeyRing {
  ring: KeyRing;
  warning?: string;
}

export const STATE_KEY_BYTES = 32;
export const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const EPHEMERAL_KEY_WARNING =
  'no state keys configured (MCP_MODEL_INPUT_STATE_KEYS or --state-keys-file): using a random per-process key; MRTR retries must come back to this process';

const BASE64_PATTERN = /^[A-Za-z0-9+/_-]+={0,2}$/;

export function createKeyRing(keys: readonly StateKey[], options: KeyRingOptions = {}): KeyRing {
  if (keys.length === 0) {
    throw invalid('state key ring is empty: at least one key is required');
  }
  const byKid = new Map<string, StateKey>();
  keys.forEach((entry, index) => {
    const position = `state key ${index + 1}`;
    if (typeof entry.kid !== 'string' || !KID_PATTERN.test(entry.kid)) {
      throw invalid(`${position}: kid must match ${KID_PATTERN.source}`);
    }
    if (!(entry.key instanceof Uint8Array) || entry.key.length !== STATE_KEY_BYTES) {
      const length = entry.key instanceof Uint8Array ? entry.key.length : 'not bytes';
      throw invalid(`${position} (kid "${entry.kid}"): key must be exactly ${STATE_KEY_BYTES} bytes (got ${length})`);
    }
    if (byKid.has(entry.kid)) {
      throw invalid(`${position}: duplicate kid "${entry.kid}"`);
    }
    byKid.set(entry.kid, Object.freeze({ kid: entry.kid, key: Uint8Array.from(entry.key) }));
  });
  const kids = Object.freeze([...byKid.keys()]);
  const mintKey = byKid.get(kids[0] as string) as StateKey;
  return Object.freeze({
    mintKey,
    kids,
    ephemeral: options.ephemeral ?? false,
    get: (kid: string) => byKid.get(kid),
  });
}

/**
 * Parses `kid:base64` entries separated by commas and/or newlines. Blank entries
 * and lines starting with `#` are ignored. Base64 may be standard or url-safe and
 * must decode to exactly 32 bytes. Errors name the entry and kid, never the key.
 */
export function parseStateKeys(text: string): StateKey[] {
  const entries = text
    .split(/\r?\n|\r/)
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) {
    throw invalid('no state keys found: expected entries of the form kid:base64');
  }
  return entries.map((entry, index) => {
    const position = `state key entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) {
      throw invalid(`${position}: expected kid:base64`);
    }
    const kid = entry.slice(0, colon).trim();
    const encoded = entry.slice(colon + 1).trim();
    if (!KID_PATTERN.test(kid)) {
      throw invalid(`${position}: kid must match ${KID_PATTERN.source}`);
    }
    const key = decodeBase64(encoded);
    if (key === undefined) {
      throw invalid(`${position} (kid "${kid}"): key is not valid base64`);
    }
    if (key.length !== STATE_KEY_BYTES) {
      throw invalid(
        `${position} (kid "${kid}"): key must decode to exactly ${STATE_KEY_BYTES} bytes (got ${key.length})`,
      );
    }
    return { kid, key };
  });
}

export function createEphemeralKeyRing(): KeyRing {
  return createKeyRing([{ kid: 'ephemeral', key: randomBytes(STATE_KEY_BYTES) }], { ephemeral: true });
}

/**
 * Loads the ring from a keys file, else from the environment value, else falls
 * back to an ephemeral per-process key with a warning. A blank environment value
 * counts as unset.
 */
export async function loadKeyRing(options: LoadKeyRingOptions): Promise<LoadedKeyRing> {
  const { filePath, envValue } = options;
  if (filePath !== undefined) {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'read failed';
      throw new ModelInputError('state_keys_invalid', `cannot read state keys file ${filePath}: ${reason}`, {
        cause: error,
      });
    }
    return { ring: withSource(() => createKeyRing(parseStateKeys(text)), `state keys file ${filePath}`) };
  }
  if (envValue !== undefined && envValue.trim() !== '') {
    return { ring: withSource(() => createKeyRing(parseStateKeys(envValue)), 'MCP_MODEL_INPUT_STATE_KEYS') };
  }
  return { ring: createEphemeralKeyRing(), warning: EPHEMERAL_KEY_WARNING };
}

/** A fresh `kid:base64` line (standard base64 of 32 random bytes). */
export function generateStateKey(kid: string): string {
  if (!KID_PATTERN.test(kid)) {
    throw invalid(`kid must match ${KID_PATTERN.source}`);
  }
  return `${kid}:${randomBytes(STATE_KEY_BYTES).toString('base64')}`;
}

function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64_PATTERN.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    return undefined;
  }
  const hasStandard = /[+/]/.test(text);
  const hasUrlSafe = /[-_]/.test(text);
  if (hasStandard && hasUrlSafe) {
    return undefined;
  }
  return Buffer.from(text, hasUrlSafe ? 'base64url' : 'base64');
}

function withSource<T>(parse: () => T, source: string): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ModelInputError && error.code === 'state_keys_invalid') {
      throw new ModelInputError('state_keys_invalid', `${source}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

function invalid(message: string): ModelInputError<'state_keys_invalid'> {
  return new ModelInputError('state_keys_invalid', message);
}
