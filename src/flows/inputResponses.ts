/**
 * Validation of the client's answers to embedded requests. The values are untrusted; a malformed
 * one is the client's error (-32602), never something to guess at.
 */
import { type CreateMessageResult, type ElicitResult, type ListRootsResult } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { MAX_ANSWER_DEPTH, nestsDeeperThan } from '../protocol/json.js';
import { InputResponseError } from './roundErrors.js';

export const MAX_RESPONSE_BYTES = 256 * 1024;

const contentBlock = z.looseObject({ type: z.string() });
const samplingResult = z.looseObject({
  role: z.literal('assistant'),
  content: z.union([contentBlock, z.array(contentBlock).min(1)]),
  model: z.string(),
  stopReason: z.string().optional(),
});
const elicitResult = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});
const rootsResult = z.looseObject({
  roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })),
});

function read<T>(key: string, raw: unknown, schema: z.ZodType, what: string): T {
  // Before anything walks it recursively (the schema, the size count below): no stack overflow, a clear -32602.
  if (nestsDeeperThan(raw, MAX_ANSWER_DEPTH)) {
    throw new InputResponseError(key, `nests arrays or objects more than ${MAX_ANSWER_DEPTH} deep`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new InputResponseError(key, `not a valid ${what}`);
  if (Buffer.byteLength(JSON.stringify(raw), 'utf8') > MAX_RESPONSE_BYTES) {
    throw new InputResponseError(key, `exceeds ${MAX_RESPONSE_BYTES} bytes`);
  }
  return parsed.data as T;
}

export function readSamplingResult(key: string, raw: unknown): CreateMessageResult {
  return read(key, raw, samplingResult, 'sampling/createMessage result');
}

export function readElicitResult(key: string, raw: unknown): ElicitResult {
  return read(key, raw, elicitResult, 'elicitation/create result');
}

export function readRootsResult(key: string, raw: unknown): ListRootsResult {
  return read(key, raw, rootsResult, 'roots/list result');
}
