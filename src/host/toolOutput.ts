/**
 * Output-schema checks for the results the host's own MRTR loop receives. The SDK's `callTool`
 * validates `structuredContent` against the cached `outputSchema`, but in manual mode it applies
 * that check to the `input_required` value too (which has no structured content) — so the loop
 * sends each leg with the tool definition minus its output schema, and checks the final result
 * here with the same rule: a tool with an output schema returns matching `structuredContent`
 * unless it answered with an error.
 *
 * The schema comes from the server: it is compiled on the linear-time engine (linearSchemas.ts), and
 * one with a pattern that engine cannot take is reported (`protocol_error`), not run.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ValidateFunction } from 'ajv/dist/2020.js';

import { HostError } from './hostError.js';
import { linearValidator } from './linearSchemas.js';

export { MAX_VALIDATORS } from './linearSchemas.js';

export type OutputCheck = (result: CallToolResult) => void;

export function createOutputCheck(tool: Tool | undefined): OutputCheck {
  const schema = tool?.outputSchema;
  if (tool === undefined || schema === undefined) return () => {};
  let validate: ValidateFunction;
  try {
    validate = linearValidator(schema);
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
