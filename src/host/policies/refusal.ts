/**
 * How a policy says no: one `HostError` shape for every refusal (the input key and round in
 * `detail`, a one-line message naming the key and the limit passed), and the byte and issue
 * helpers the policies share. Messages never quote prompt or response text.
 */
import type { z } from 'zod';

import { HostError, type HostErrorCode } from '../hostError.js';
import { terminalSafe } from '../../protocol/sanitize.js';
import type { CallPosition } from '../types.js';

/** Characters of a server-chosen input key quoted in a message. */
const MAX_KEY_CHARS = 80;

/** A server-chosen input key as a message quotes it: no terminal controls, bounded, in quotes. */
export function quotedKey(key: string): string {
  return JSON.stringify(terminalSafe(key, MAX_KEY_CHARS));
}

/** A `HostError` for the input `key` at `position`: `input "key": <text>`. */
export function refuse<C extends HostErrorCode>(
  code: C,
  key: string,
  position: Pick<CallPosition, 'round'>,
  text: string,
): HostError<C> {
  return new HostError(code, `input ${quotedKey(key)}: ${text}`, { key, round: position.round });
}

/** A server-chosen name (a method, a mode) quoted for a message, cut to `max` characters. */
export function quoted(value: unknown, max = 64): string {
  const text = typeof value === 'string' ? value : typeof value;
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** UTF-8 bytes of `text`. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Whether `text` is longer than `limit` UTF-8 bytes; a string longer in UTF-16 units is, without counting. */
export function utf8Over(text: string, limit: number): boolean {
  return text.length > limit || (text.length * 3 > limit && utf8Bytes(text) > limit);
}

/**
 * UTF-8 bytes of the JSON of `value` (`undefined` counts 0); `undefined` when it is not JSON
 * (a cycle, a BigInt, nesting deep enough to exhaust the stack).
 */
export function jsonBytes(value: unknown): number | undefined {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? 0 : utf8Bytes(json);
  } catch {
    return undefined;
  }
}

/** Whether `value` is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `messages[0].content.text`: a zod path as a reader writes it. */
function formatPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** The first issue of a zod error as `path: message` (zod's messages name types and limits, never values). */
export function describeIssue(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${prefix || 'value'} is invalid`;
  const where = formatPath(issue.path, prefix);
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}
