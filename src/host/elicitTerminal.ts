/**
 * Terminal elicitation: fulfils an embedded `elicitation/create` (form mode) by asking the user with
 * @clack/prompts. It shows the server (unverified) and its sanitised message, asks Respond / Decline /
 * Cancel, then one prompt per field of `requestedSchema`: text for strings and numbers (checked, and
 * re-asked while invalid), confirm for booleans, select for enums, multiselect for enum arrays.
 * Without a terminal it declines; Ctrl-C at any point cancels.
 */
import type { Readable, Writable } from 'node:stream';

import { confirm, isCancel, log, multiselect, note, select, text } from '@clack/prompts';
import type {
  ElicitRequestFormParams,
  ElicitResult,
  PrimitiveSchemaDefinition,
  StringSchema,
} from '@modelcontextprotocol/client';

import { terminalSafe } from '../protocol/sanitize.js';
import { sharedTerminalGate, type TerminalGate } from './terminalGate.js';
import type { ConnectedServer } from './types.js';

export interface TerminalElicitorOptions {
  /** Default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Default `process.stderr`. */
  output?: NodeJS.WritableStream;
  /** Ask even though input or output is not a TTY (tests); default: only when both are TTYs. */
  interactive?: boolean;
  /** Held while a question is open (server stderr waits); default the process's. */
  terminal?: TerminalGate;
}

export interface ElicitContext {
  server: ConnectedServer;
  tool: string;
  /** Aborts when the request goes away (withdrawn, its call timed out): the open question closes, saying why. */
  signal?: AbortSignal;
}

export type TerminalElicitor = (params: ElicitRequestFormParams, context: ElicitContext) => Promise<ElicitResult>;

type Value = string | number | boolean | string[];
/** A field's answer: a value, nothing (optional and left empty), or the user cancelled. */
type Answer = { value: Value } | { skip: true } | { cancel: true };
type Io = { input: Readable; output: Writable; signal?: AbortSignal };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const safe = (value: string | undefined, max: number) => terminalSafe(value ?? '', max);

function stringProblem(value: string, schema: { minLength?: number; maxLength?: number; format?: string }) {
  const length = Array.from(value).length;
  if (schema.minLength !== undefined && length < schema.minLength) return `at least ${schema.minLength} characters`;
  if (schema.maxLength !== undefined && length > schema.maxLength) return `at most ${schema.maxLength} characters`;
  if (schema.format === 'email' && !EMAIL.test(value)) return 'not an email address';
  if (schema.format === 'uri' && !URL.canParse(value)) return 'not a URI';
  if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'not a date (YYYY-MM-DD)';
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return 'not a date-time';
  return undefined;
}

function numberProblem(raw: string, schema: { type: string; minimum?: number; maximum?: number }) {
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(value)) return 'enter a number';
  if (schema.type === 'integer' && !Number.isInteger(value)) return 'enter a whole number';
  if (schema.minimum !== undefined && value < schema.minimum) return `at least ${schema.minimum}`;
  if (schema.maximum !== undefined && value > schema.maximum) return `at most ${schema.maximum}`;
  return undefined;
}

function choicesOf(schema: PrimitiveSchemaDefinition): Array<{ value: string; label: string }> | undefined {
  const from = (values: string[], labels?: string[]) =>
    values.map((value, index) => ({ value, label: safe(labels?.[index] ?? value, 80) }));
  if ('enum' in schema) return from(schema.enum, 'enumNames' in schema ? schema.enumNames : undefined);
  if ('oneOf' in schema)
    return from(
      schema.oneOf.map((option) => option.const),
      schema.oneOf.map((o) => o.title),
    );
  if (schema.type !== 'array') return undefined;
  if ('enum' in schema.items) return from(schema.items.enum);
  return from(
    schema.items.anyOf.map((option) => option.const),
    schema.items.anyOf.map((o) => o.title),
  );
}

async function askField(
  schema: PrimitiveSchemaDefinition,
  message: string,
  required: boolean,
  io: Io,
): Promise<Answer> {
  const choices = choicesOf(schema);
  if (schema.type === 'boolean') {
    const value = await confirm({ message, initialValue: schema.default ?? false, ...io });
    return isCancel(value) ? { cancel: true } : { value };
  }
  if (schema.type === 'array' && choices !== undefined) {
    for (;;) {
      const picked = await multiselect({ message, options: choices, required: (schema.minItems ?? 0) > 0, ...io });
      if (isCancel(picked)) return { cancel: true };
      const problem =
        schema.minItems !== undefined && picked.length < schema.minItems
          ? `pick at least ${schema.minItems}`
          : schema.maxItems !== undefined && picked.length > schema.maxItems
            ? `pick at most ${schema.maxItems}`
            : undefined;
      if (problem === undefined) return picked.length === 0 && !required ? { skip: true } : { value: picked };
      note(problem, 'Try again', io);
    }
  }
  if (choices !== undefined) {
    const options = choices.map((choice, index) => ({ value: index, label: choice.label }));
    if (!required) options.push({ value: -1, label: '(leave empty)' });
    const index = await select<number>({ message, options, ...io });
    if (isCancel(index)) return { cancel: true };
    const choice = choices[index];
    return choice === undefined ? { skip: true } : { value: choice.value };
  }
  const numeric = schema.type === 'number' || schema.type === 'integer';
  const initial = 'default' in schema && schema.default !== undefined ? safe(String(schema.default), 500) : undefined;
  const raw = await text({
    message,
    ...(initial === undefined ? {} : { initialValue: initial }),
    validate(value = '') {
      if (value === '') return required ? 'required' : undefined;
      if (numeric) return numberProblem(value, schema);
      return schema.type === 'string' ? stringProblem(value, schema as StringSchema) : undefined;
    },
    ...io,
  });
  if (isCancel(raw)) return { cancel: true };
  if (raw === undefined || raw === '') return { skip: true };
  return { value: numeric ? Number(raw.trim()) : raw };
}

/** The elicitor the host runtime calls for each embedded form-mode `elicitation/create`. */
export function createTerminalElicitor(options: TerminalElicitorOptions = {}): TerminalElicitor {
  const io: Io = {
    input: (options.input ?? process.stdin) as Readable,
    output: (options.output ?? process.stderr) as Writable,
  };
  const isTty = (stream: object) => (stream as { isTTY?: boolean }).isTTY === true;
  const interactive = options.interactive ?? (isTty(io.input) && isTty(io.output));

  /** The answer when the user cancelled, or — when the request went away — after saying so. */
  function cancelled(signal: AbortSignal | undefined): ElicitResult {
    if (signal?.aborted === true) {
      const reason: unknown = signal.reason;
      const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
      log.warn(`Dialog closed: ${safe(why === '' ? 'the request was aborted' : why, 300)}.`, { output: io.output });
    }
    return { action: 'cancel' };
  }

  async function elicit(params: ElicitRequestFormParams, context: ElicitContext): Promise<ElicitResult> {
    if (!interactive) return { action: 'decline' };
    if (context.signal?.aborted === true) return { action: 'cancel' };
    const asking: Io = { ...io, ...(context.signal !== undefined && { signal: context.signal }) };
    const name = safe(context.server.name, 80);
    const body = [
      `Server: ${name} (unverified)`,
      `Key:    ${safe(context.server.key, 200)}`,
      `Tool:   ${safe(context.tool, 80)}`,
      '',
      terminalSafe(params.message, 2000, { multiline: true }),
    ].join('\n');
    note(body, `Input requested by ${name} (unverified)`, io);
    const action = await select({
      message: 'Respond to this request?',
      options: [
        { value: 'respond', label: 'Respond' },
        { value: 'decline', label: 'Decline' },
        { value: 'cancel', label: 'Cancel' },
      ],
      ...asking,
    });
    if (isCancel(action) || action === 'cancel') return cancelled(context.signal);
    if (action === 'decline') return { action: 'decline' };
    const required = new Set(params.requestedSchema.required ?? []);
    const content: Record<string, Value> = {};
    for (const [field, schema] of Object.entries(params.requestedSchema.properties)) {
      const label = safe(schema.title ?? field, 80);
      const description = schema.description === undefined ? '' : ` — ${safe(schema.description, 200)}`;
      const optional = required.has(field) ? '' : ' (optional)';
      const answer = await askField(schema, `${label}${optional}${description}`, required.has(field), asking);
      if ('cancel' in answer) return cancelled(context.signal);
      if ('value' in answer) content[field] = answer.value;
    }
    return { action: 'accept', content };
  }

  const terminal = options.terminal ?? sharedTerminalGate();
  async function held(params: ElicitRequestFormParams, context: ElicitContext): Promise<ElicitResult> {
    if (!interactive) return { action: 'decline' };
    const release = terminal.hold();
    try {
      return await elicit(params, context);
    } finally {
      release();
    }
  }

  let queue: Promise<unknown> = Promise.resolve();
  return (params, context) => {
    const turn = queue.then(() => held(params, context));
    queue = turn.catch(() => undefined);
    return turn;
  };
}
