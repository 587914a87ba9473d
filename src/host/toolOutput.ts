/**
 * Output-schema checks for the results the host's own MRTR loop receives. The SDK's `callTool`
 * validates `structuredContent` against the cached `outputSchema`, but in manual mode it applies
 * that check to the `input_required` value too (which has no structured content) — so the loop
 * sends each leg with the tool definition minus its output schema, and checks the final result
 * here with the same rule: a tool with an output schema returns matching `structuredContent`
 * unless it answered with an error.
 *
 * Each call lists the tools afresh, so every call brings a new schema object. Ajv keeps what it compiles, keyed by
 * object, and refuses a second schema with an `$id` it already holds — so validators are kept here instead, by the
 * schema's JSON text, for the most recently used `MAX_VALIDATORS` schemas, and what falls out is removed from Ajv.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

import { HostError } from './hostError.js';

const ajv = new Ajv2020({ strict: false, allErrors: false });

/** Distinct output schemas whose compiled validators are kept (least recently used first out). */
export const MAX_VALIDATORS = 64;
const validators = new Map<string, { schema: object; validate: ValidateFunction }>();

/** The compiled validator for `schema`, compiled once per distinct schema text while it stays in use. */
function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const kept = validators.get(key);
  if (kept !== undefined) {
    validators.delete(key);
    validators.set(key, kept);
    return kept.validate;
  }
  const validate = ajv.compile(schema);
  validators.set(key, { schema, validate });
  for (const [oldest, entry] of validators) {
    if (validators.size <= MAX_VALIDATORS) break;
    validators.delete(oldest);
    ajv.removeSchema(entry.schema);
  }
  return validate;
}

export type OutputCheck = (result: CallToolResult) => void;

export function createOutputCheck(tool: Tool | undefined): OutputCheck {
  const schema = tool?.outputSchema;
  if (tool === undefined || schema === undefined) return () => {};
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
    throw new HostError('protocol_error', `${tool.name}: its outputSchema does not compile: ${reason}`);
  }
  return (result) => {
    if (result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new HostError('protocol_error', `${tool.name} has an output schema but returned no structuredContent`);
    }
    if (!validate(result.structuredContent)) {
      const first = validate.errors?.[0];
      const where = first === undefined ? '' : ` (${first.instancePath || '/'} ${first.message ?? ''})`;
      throw new HostError('protocol_error', `${tool.name}: structuredContent does not match its outputSchema${where}`);
    }
  };
}

/** The definition the SDK is given per leg: the same tool without its output schema. */
export function withoutOutputSchema(tool: Tool | undefined): Tool | undefined {
  if (tool === undefined) return undefined;
  const { outputSchema: _omitted, ...rest } = tool;
  return rest;
}
