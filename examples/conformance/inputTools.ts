/**
 * The suite's multi-round tools, on the project's MRTR machinery (src/flows/inputRounds.ts: the
 * sealed, bound request state, per-request capability checks, the round cap) — the same code the
 * summarize_repo engine runs on. Three of them (test_input_required_result_elicitation, _sampling and
 * _list_roots) use the ephemeral form (`askWithoutState`: `input_required` without `requestState`), because the
 * suite calls them with `inputResponses` and no state, as the spec's examples for them do; every other
 * multi-round tool and the prompt use sealed, bound state.
 */
import { inputRequired, type CallToolResult, type InputRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';

import {
  answerText,
  askForInput,
  askWithoutState,
  defineTool,
  openRound,
  readElicitResult,
  readRootsResult,
  readSamplingResult,
} from '../../src/entries/server.js';
import type { AnyToolDefinition, RoundOptions, RoundRequest } from '../../src/entries/server.js';

const noArgs = z.object({});
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

export const elicit = (message: string, property: string, type = 'string'): InputRequest =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [property]: { type } }, required: [property] },
  } as never);
const sample = (prompt: string, maxTokens: number): InputRequest =>
  inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens });
const roots = (): InputRequest => ({ method: 'roots/list', params: {} }) as InputRequest;

/** Reads one validated response by the kind of request that asked for it. */
function describeResponse(request: InputRequest, key: string, raw: unknown): string {
  if (request.method === 'sampling/createMessage') return answerText(readSamplingResult(key, raw));
  if (request.method === 'roots/list')
    return readRootsResult(key, raw)
      .roots.map((root) => root.uri)
      .join(', ');
  const result = readElicitResult(key, raw);
  return result.action === 'accept' ? Object.values(result.content ?? {}).join(', ') : result.action;
}

type Phase = { step: number; answers: Record<string, string> };
export type Stage = { requests: (request: RoundRequest) => Record<string, InputRequest> };

/**
 * A tool that asks for input in stages (one round each), re-asks for what a retry left out, and
 * completes with `finish` once every stage is answered.
 */
export function stagedTool(
  name: string,
  options: RoundOptions,
  stages: Stage[],
  finish: (answers: Record<string, string>) => CallToolResult,
): AnyToolDefinition {
  return defineTool({
    name,
    title: name,
    description: `Conformance fixture: ${stages.length} input stage(s)`,
    inputSchema: noArgs,
    run: async (args, ctx) => {
      const target = { method: 'tools/call' as const, name, args };
      const opened = await openRound<Phase>(ctx, target, options, () => ({ step: 0, answers: {} }));
      let phase = opened.state;
      const stage = stages[phase.step];
      if (stage !== undefined && opened.round > 0) {
        const requests = stage.requests(ctx);
        for (const [key, raw] of Object.entries(opened.responses)) {
          const request = requests[key];
          if (request !== undefined) phase.answers[key] = describeResponse(request, key, raw);
        }
        const missing = Object.keys(requests).filter((key) => phase.answers[key] === undefined);
        if (missing.length > 0) {
          const again = Object.fromEntries(missing.map((key) => [key, requests[key]!]));
          const asked = askForInput(ctx, target, options, phase, opened.round, again);
          return asked.kind === 'asked' ? asked.result : { ...text(asked.message), isError: true };
        }
        phase = { step: phase.step + 1, answers: phase.answers };
      }
      const next = stages[phase.step];
      if (next === undefined) return finish(phase.answers);
      const requests = next.requests(ctx);
      if (Object.keys(requests).length === 0) return finish(phase.answers);
      const asked = askForInput(ctx, target, options, phase, opened.round, requests);
      return asked.kind === 'asked' ? asked.result : { ...text(asked.message), isError: true };
    },
  });
}

/**
 * A one-round tool without request state (the spec's ephemeral form): the retry's own
 * `inputResponses` carry everything; keys it does not know are ignored, missing ones re-asked.
 */
function ephemeralTool(
  name: string,
  requests: Record<string, InputRequest>,
  finish: (answers: Record<string, string>) => CallToolResult,
): AnyToolDefinition {
  return defineTool({
    name,
    title: name,
    description: 'Conformance fixture: one input round, no request state',
    inputSchema: noArgs,
    run: async (_args, ctx) => {
      const answers: Record<string, string> = {};
      const missing: Record<string, InputRequest> = {};
      for (const [key, request] of Object.entries(requests)) {
        const raw = ctx.inputResponses?.[key];
        if (raw === undefined) missing[key] = request;
        else answers[key] = describeResponse(request, key, raw);
      }
      return Object.keys(missing).length === 0 ? finish(answers) : askWithoutState(ctx, missing);
    },
  });
}

export function inputTools(options: RoundOptions): AnyToolDefinition[] {
  const one = (requests: Record<string, InputRequest>): Stage[] => [{ requests: () => requests }];
  return [
    ephemeralTool('test_input_required_result_elicitation', { user_name: elicit('What is your name?', 'name') }, (a) =>
      text(`Hello, ${a['user_name']}!`),
    ),
    ephemeralTool(
      'test_input_required_result_sampling',
      { capital_question: sample('What is the capital of France?', 100) },
      (a) => text(`The model answered: ${a['capital_question']}`),
    ),
    ephemeralTool('test_input_required_result_list_roots', { client_roots: roots() }, (a) =>
      text(`Client roots: ${a['client_roots'] || '(none)'}`),
    ),
    stagedTool(
      'test_input_required_result_request_state',
      options,
      one({ confirm: elicit('Please confirm', 'ok', 'boolean') }),
      () => text('state-ok: the sealed requestState verified and carried this call'),
    ),
    stagedTool(
      'test_input_required_result_multiple_inputs',
      options,
      one({
        user_name: elicit('What is your name?', 'name'),
        greeting: sample('Generate a greeting', 50),
        client_roots: roots(),
      }),
      (a) => text(`Got ${a['user_name']}, ${a['greeting']} and roots ${a['client_roots'] || '(none)'}`),
    ),
    stagedTool(
      'test_input_required_result_multi_round',
      options,
      [
        { requests: () => ({ step1: elicit('Step 1: What is your name?', 'name') }) },
        { requests: () => ({ step2: elicit('Step 2: What is your favorite color?', 'color') }) },
      ],
      (a) => text(`${a['step1']} likes ${a['step2']}`),
    ),
    stagedTool(
      'test_input_required_result_tampered_state',
      options,
      one({ confirm: elicit('Please confirm', 'ok', 'boolean') }),
      () => text('state verified'),
    ),
    stagedTool(
      'test_input_required_result_capabilities',
      options,
      [
        {
          requests: (request) => ({
            ...(request.clientCapabilities.sampling !== undefined && { ask_model: sample('Say hello', 20) }),
            ...(request.clientCapabilities.elicitation !== undefined && { ask_user: elicit('Say hello', 'hello') }),
            ...(request.clientCapabilities.roots !== undefined && { ask_roots: roots() }),
          }),
        },
      ],
      (a) => text(`Answered: ${Object.keys(a).join(', ') || 'nothing (no input capability declared)'}`),
    ),
    stagedTool('test_missing_capability', options, one({ needs_model: sample('Say hello', 20) }), () =>
      text('sampling was declared'),
    ),
    stagedTool('test_streaming_elicitation', options, one({ confirm: elicit('Continue?', 'ok', 'boolean') }), () =>
      text('confirmed'),
    ),
  ];
}
