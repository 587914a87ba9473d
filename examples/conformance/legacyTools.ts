/**
 * The tools the suite's 2025-11-25 scenarios call by their 2025 names, written once in the MRTR style:
 * each answers `input_required` with one embedded request and sealed, bound state (src/flows/inputRounds.ts).
 * On a 2026-07-28 request that is the whole story; on a 2025-11-25 session the SDK's legacy shim sends
 * the embedded request as a live `sampling/createMessage` or `elicitation/create` and re-enters the tool
 * with the answer, so the tool never knows which era it serves.
 */
import {
  inputRequired,
  type CallToolResult,
  type ElicitRequestFormParams,
  type InputRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import {
  answerText,
  askForInput,
  defineTool,
  openRound,
  readElicitResult,
  readSamplingResult,
} from '../../src/entries/server.js';
import type { AnyToolDefinition, RoundOptions, ToolContext } from '../../src/entries/server.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError && { isError: true }),
});

interface OneRoundSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  inputSchema: S;
  /** The one embedded request, under the key its answer comes back with. */
  ask: (args: z.output<S>) => { key: string; request: InputRequest };
  /** Turns the (still unvalidated) answer into the tool's result. */
  finish: (raw: unknown, key: string) => CallToolResult;
  /** A reason to end with a tool error before asking (e.g. the host's model is unavailable). */
  refuse?: (ctx: ToolContext) => string | undefined;
}

/** A tool that asks once (again, if a retry left the answer out) and completes with the answer. */
function oneRoundTool<S extends z.ZodObject>(spec: OneRoundSpec<S>, options: RoundOptions): AnyToolDefinition {
  return defineTool({
    name: spec.name,
    title: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    run: async (args, ctx) => {
      const refused = spec.refuse?.(ctx);
      if (refused !== undefined) return text(`${spec.name} cannot run: ${refused}`, true);
      const target = { method: 'tools/call' as const, name: spec.name, args };
      const opened = openRound<Record<string, never>>(ctx, target, options, () => ({}));
      const { key, request } = spec.ask(args);
      const raw = opened.responses[key];
      if (raw !== undefined) return spec.finish(raw, key);
      const asked = askForInput(ctx, target, options, {}, opened.round, { [key]: request });
      return asked.kind === 'asked' ? asked.result : text(asked.message, true);
    },
  });
}

const elicitation = (message: string, requestedSchema: RequestedSchema) =>
  inputRequired.elicit({ message, requestedSchema });

const elicitationOutcome =
  (prefix: string) =>
  (raw: unknown, key: string): CallToolResult => {
    const answer = readElicitResult(key, raw);
    return text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  };

/** SEP-1034: a default for every primitive type. */
const DEFAULTS_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', default: 'John Doe' },
    age: { type: 'integer', title: 'Age', default: 30 },
    score: { type: 'number', title: 'Score', default: 95.5 },
    status: { type: 'string', title: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', title: 'Verified', default: true },
  },
};

/** SEP-1330: the five enum shapes (untitled, titled, legacy `enumNames`; single and multi select). */
const ENUMS_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

export function legacyTools(options: RoundOptions): AnyToolDefinition[] {
  return [
    oneRoundTool(
      {
        name: 'test_sampling',
        description: "Asks the client's model the given prompt",
        inputSchema: z.object({ prompt: z.string() }),
        // On a 2025-11-25 session without sampling (or after a refusal) a tool error, as the scenario asks.
        refuse: (ctx) => ctx.hostUnavailable,
        ask: ({ prompt }) => ({
          key: 'llm_answer',
          request: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
            maxTokens: 100,
          }),
        }),
        finish: (raw, key) => text(`LLM response: ${answerText(readSamplingResult(key, raw))}`),
      },
      options,
    ),
    oneRoundTool(
      {
        name: 'test_elicitation',
        description: 'Asks the user for a username and an email address',
        inputSchema: z.object({ message: z.string() }),
        ask: ({ message }) => ({
          key: 'user_info',
          request: elicitation(message, {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          }),
        }),
        finish: elicitationOutcome('User response'),
      },
      options,
    ),
    oneRoundTool(
      {
        name: 'test_elicitation_sep1034_defaults',
        description: 'Asks the user with a default for every primitive type (SEP-1034)',
        inputSchema: z.object({}),
        ask: () => ({ key: 'defaults', request: elicitation('Please review your details', DEFAULTS_SCHEMA) }),
        finish: elicitationOutcome('Elicitation completed'),
      },
      options,
    ),
    oneRoundTool(
      {
        name: 'test_elicitation_sep1330_enums',
        description: 'Asks the user with every enum shape (SEP-1330)',
        inputSchema: z.object({}),
        ask: () => ({ key: 'choices', request: elicitation('Please choose your options', ENUMS_SCHEMA) }),
        finish: elicitationOutcome('Elicitation completed'),
      },
      options,
    ),
  ];
}
