import { randomBytes } from 'node:crypto';

import { expect } from 'vitest';

import { digestArguments } from '../../src/state/canonicalJson.js';
import type { StateBinding, StateCodec } from '../../src/state/codec.js';
import { createStateCodec } from '../../src/state/codec.js';
import type { KeyRing } from '../../src/state/keyRing.js';
import { createKeyRing } from '../../src/state/keyRing.js';
import type { StateRejectReason } from '../../src/state/stateRejectedError.js';
import { StateRejectedError } from '../../src/state/stateRejectedError.js';

/** Shared fixtures for the state codec tests. */
export interface Payload {
  round: number;
  picked: string[];
  secret: string;
}

export const T0 = Date.UTC(2026, 6, 28, 12, 0, 0);
export const keyA = randomBytes(32);
export const keyB = randomBytes(32);
export const ringA = createKeyRing([{ kid: 'a', key: keyA }]);

export const binding: StateBinding = {
  principal: 'user:alice@example.com',
  method: 'tools/call',
  tool: 'summarize_repo',
  argumentsDigest: digestArguments({ root: '.', audience: 'developer' }),
};
export const payload: Payload = { round: 2, picked: ['src/index.ts'], secret: 'prompt-content-do-not-leak' };

export function codec(
  ring: KeyRing = ringA,
  now: () => number = () => T0,
  extra: { maxTokenBytes?: number } = {},
): StateCodec<Payload> {
  return createStateCodec<Payload>({ keyRing: ring, now, ...extra });
}

/** Runs `fn`, asserts it throws a well-formed StateRejectedError and returns its reason. */
export function rejection(fn: () => unknown): StateRejectReason {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StateRejectedError);
    const rejected = error as StateRejectedError;
    expect(rejected.code).toBe('state_rejected');
    expect(rejected.name).toBe('StateRejectedError');
    expect(rejected.message).toBe(`request state rejected: ${rejected.reason}`);
    return rejected.reason;
  }
  throw new Error('expected StateRejectedError');
}

/** Flips the low bit of byte `at(length)` in the decoded part `index` and re-encodes it. */
export function flipByte(token: string, index: number, at: (length: number) => number): string {
  const parts = token.split('.');
  const bytes = Buffer.from(parts[index] ?? '', 'base64url');
  const i = at(bytes.length);
  bytes[i] = (bytes[i] ?? 0) ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

/** Replaces character `i` with a different base64url character. */
export function swapChar(text: string, i: number): string {
  return `${text.slice(0, i)}${text[i] === 'A' ? 'B' : 'A'}${text.slice(i + 1)}`;
}
