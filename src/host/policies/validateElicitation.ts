/**
 * Decides whether an `elicitation/create` request is one the host can show: form mode only, a
 * message of at most `MAX_ELICITATION_MESSAGE_BYTES`, and a flat object schema of primitive fields
 * (string, number, integer, boolean, string enums) and multi-select fields (an array of strings from an enum or
 * titled options, on both revisions). Anything else is `request_invalid`.
 */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { z } from 'zod';

import type { CallPosition } from '../types.js';
import { MAX_ELICITATION_MESSAGE_BYTES, type RequestLimits } from './limits.js';
import { isObject, jsonBytes, quoted, refuse, utf8Over } from './refusal.js';

const described = { title: z.string().optional(), description: z.string().optional() };
const count = z.number().int().min(0).optional();

const enumField = z.object({
  type: z.literal('string'),
  ...described,
  enum: z.array(z.string()).min(1),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
const titledEnumField = z.object({
  type: z.literal('string'),
  ...described,
  oneOf: z.array(z.object({ const: z.string(), title: z.string() })).min(1),
  default: z.string().optional(),
});
const stringField = z.object({
  type: z.literal('string'),
  ...described,
  minLength: count,
  maxLength: count,
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  default: z.string().optional(),
});
const numberField = z.object({
  type: z.enum(['number', 'integer']),
  ...described,
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
const booleanField = z.object({ type: z.literal('boolean'), ...described, default: z.boolean().optional() });
/** A multi-select field (both revisions): an array of strings from an enum, or from titled options. */
const multiSelectField = z.object({
  type: z.literal('array'),
  ...described,
  minItems: count,
  maxItems: count,
  items: z.union([
    z.object({ type: z.literal('string'), enum: z.array(z.string()).min(1) }),
    z.object({ anyOf: z.array(z.object({ const: z.string(), title: z.string() })).min(1) }),
  ]),
  default: z.array(z.string()).optional(),
});

/** The one schema a field must match: chosen by its keys, so that a bad enum never passes as free text. */
function fieldSchema(field: Record<string, unknown>) {
  if (field.type === 'array') return multiSelectField;
  if (field.enum !== undefined) return enumField;
  if (field.oneOf !== undefined) return titledEnumField;
  if (field.type === 'boolean') return booleanField;
  return field.type === 'string' ? stringField : numberField;
}

type Primitive = z.infer<
  | typeof enumField
  | typeof titledEnumField
  | typeof stringField
  | typeof numberField
  | typeof booleanField
  | typeof multiSelectField
>;

/** Validates form-mode elicitation params; throws `HostError('request_invalid')` naming `key`. */
export function validateElicitation(
  key: string,
  raw: unknown,
  limits: RequestLimits,
  position: CallPosition,
): ElicitRequestFormParams {
  const invalid = (text: string) => refuse('request_invalid', key, position, text);
  if (!isObject(raw)) throw invalid('elicitation/create params must be an object');
  const bytes = jsonBytes(raw);
  if (bytes === undefined || bytes > limits.maxMessageBytes) {
    throw invalid(`elicitation params are over ${limits.maxMessageBytes} bytes, the limit`);
  }
  const { mode, message, requestedSchema } = raw;
  if (mode !== undefined && mode !== 'form') throw invalid(`elicitation mode ${quoted(mode)}: only "form" is shown`);
  if (typeof message !== 'string') throw invalid('message must be a string');
  if (utf8Over(message, MAX_ELICITATION_MESSAGE_BYTES)) {
    throw invalid(`message is over ${MAX_ELICITATION_MESSAGE_BYTES} bytes, the limit`);
  }
  if (!isObject(requestedSchema) || requestedSchema.type !== 'object' || !isObject(requestedSchema.properties)) {
    throw invalid('requestedSchema must be {type: "object", properties: {...}}');
  }
  const properties: Record<string, Primitive> = {};
  for (const [name, schema] of Object.entries(requestedSchema.properties)) {
    const parsed = isObject(schema) ? fieldSchema(schema).safeParse(schema) : undefined;
    if (parsed === undefined || !parsed.success) {
      throw invalid(
        `requestedSchema.properties.${quoted(name)} must be a string, number, integer, boolean, string-enum or multi-select field`,
      );
    }
    properties[name] = parsed.data;
  }
  const { required } = requestedSchema;
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
      throw invalid('requestedSchema.required must be an array of strings');
    }
    const unknown = required.find((name) => !Object.hasOwn(properties, name));
    if (unknown !== undefined) throw invalid(`requestedSchema.required names ${quoted(unknown)}, not a property`);
  }
  return {
    ...(mode === 'form' && { mode }),
    message,
    requestedSchema: {
      type: 'object',
      // The fields' shapes are the SDK's, checked above (its multi-select types are unions zod does not name).
      properties: properties as ElicitRequestFormParams['requestedSchema']['properties'],
      ...(required !== undefined && { required }),
    },
  };
}
