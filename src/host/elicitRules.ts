/**
 * Elicitation answered without a terminal: `decline` every request, or answer from a rules file — a JSON object of
 * field name to value (`{"name": "Ada", "colors": ["red"], "confirm": true}`). A request is accepted with the values
 * for the fields it asks, when every required field has one and each value fits its field (type, enum members,
 * bounds); otherwise it is declined. Nothing is guessed.
 */
import type { ElicitRequestFormParams, ElicitResult, PrimitiveSchemaDefinition } from '@modelcontextprotocol/client';

import type { TerminalElicitor } from './elicitTerminal.js';

export type ElicitAnswers = Readonly<Record<string, unknown>>;
type Value = string | number | boolean | string[];

export const declineElicitor: TerminalElicitor = async () => ({ action: 'decline' });

function members(schema: PrimitiveSchemaDefinition): string[] | undefined {
  if ('enum' in schema) return schema.enum;
  if ('oneOf' in schema) return schema.oneOf.map((option) => option.const);
  if (schema.type !== 'array') return undefined;
  return 'enum' in schema.items ? schema.items.enum : schema.items.anyOf.map((option) => option.const);
}

/** The value if it fits the field, else undefined. */
function fitting(schema: PrimitiveSchemaDefinition, value: unknown): Value | undefined {
  const allowed = members(schema);
  if (schema.type === 'array') {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && allowed?.includes(item) === true)) {
      return undefined;
    }
    if (schema.minItems !== undefined && value.length < schema.minItems) return undefined;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return undefined;
    return value as string[];
  }
  if (schema.type === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (schema.type === 'number' || schema.type === 'integer') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
    if (schema.type === 'integer' && !Number.isInteger(value)) return undefined;
    if (schema.minimum !== undefined && value < schema.minimum) return undefined;
    if (schema.maximum !== undefined && value > schema.maximum) return undefined;
    return value;
  }
  if (typeof value !== 'string') return undefined;
  return allowed === undefined || allowed.includes(value) ? value : undefined;
}

/** Answers each request from `answers` (see above). */
export function createRulesElicitor(answers: ElicitAnswers): TerminalElicitor {
  return async (params: ElicitRequestFormParams): Promise<ElicitResult> => {
    const required = new Set(params.requestedSchema.required ?? []);
    const content: Record<string, Value> = {};
    for (const [field, schema] of Object.entries(params.requestedSchema.properties)) {
      if (!Object.hasOwn(answers, field)) {
        if (required.has(field)) return { action: 'decline' };
        continue;
      }
      const value = fitting(schema, answers[field]);
      if (value === undefined) return { action: 'decline' };
      content[field] = value;
    }
    return { action: 'accept', content };
  };
}
