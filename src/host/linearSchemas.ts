/**
 * JSON Schemas that come from a server, compiled so that none of their regular expressions
 * (`pattern`, `patternProperties`) can backtrack: Ajv runs them on RE2JS, RE2's linear-time engine,
 * instead of `RegExp`. A pattern RE2 cannot take (backreferences, lookaround) makes the schema fail
 * to compile — it is reported, never run.
 *
 * One Ajv serves the host's own output checks (toolOutput.ts) and the SDK client's validator
 * (`jsonSchemaValidator`), so a 2025-11-25 result the SDK checks runs on the same engine. Ajv keeps
 * what it compiles, keyed by object, and refuses a second schema with an `$id` it already holds — so
 * validators are kept here by the schema's JSON text, for the most recently used `MAX_VALIDATORS`
 * schemas, and what falls out is removed from Ajv.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';

/** A pattern's flags as Ajv passes them (`u`), as RE2JS flags. */
function re2Flags(flags: string): number {
  let result = 0;
  if (flags.includes('i')) result |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) result |= RE2JS.MULTILINE;
  if (flags.includes('s')) result |= RE2JS.DOTALL;
  return result;
}

/** Ajv's `code.regExp`: JSON Schema patterns are searched for (unanchored), as `RegExp.test` does. */
const linearRegExp = Object.assign(
  (pattern: string, flags: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), re2Flags(flags));
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 120) : String(error);
      throw new Error(`pattern ${JSON.stringify(pattern.slice(0, 80))} cannot run in linear time (${reason})`, {
        cause: error,
      });
    }
    // Ajv keys its compiled patterns by `toString()`: each must name its own.
    return { test: (text: string) => compiled.matcher(text).find(), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'linearRegExp' },
);

const ajv = new Ajv2020({ strict: false, allErrors: false, code: { regExp: linearRegExp } });

/** Distinct schemas whose compiled validators are kept (least recently used first out). */
export const MAX_VALIDATORS = 64;
const validators = new Map<string, { schema: object; validate: ValidateFunction }>();

/**
 * The compiled validator for `schema`, compiled once per distinct schema text while it stays in use.
 * Throws when the schema does not compile (a pattern RE2 cannot take among the reasons).
 */
export function linearValidator(schema: object): ValidateFunction {
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

/** The SDK client's validator provider on the same engine. */
export const linearSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const validate = linearValidator(schema as object);
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: ajv.errorsText(validate.errors) };
  },
};
