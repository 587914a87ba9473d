/**
 * One model question answered down the model plan's preference list for its step. The host's model is asked
 * over a round (the caller's business: `ask`); a server-side source answers here, inline — the tool's built-in
 * model, or a provider through the call's usage meter (budget, tokens, deadline). The walk goes on past a source
 * that cannot serve: a host whose request declared no sampling (or no `sampling.tools` for a question with
 * tools), a step without a built-in model, a provider that fails, an answer that stays unusable after one repair
 * request. Each passed source leaves its reason, for the result's notes and the test kit's routes.
 */
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import { isModelProviderError, type ModelProviderError } from '../models/providerError.js';
import type { ModelSource } from '../models/sources.js';
import type { UsageMeter } from '../models/usage.js';
import { missingCapability } from '../protocol/capabilities.js';
import { checkAnswer, repairRequest } from './answers.js';
import type { ModelTool, SampleAnswer, SampleRequest } from './modelTool.js';

/** Why a source did not answer; `notable` reasons (a failure, not a mere absence) go into the result's notes. */
export interface Passed {
  source: string;
  why: string;
  notable: boolean;
}

export type RouteOutcome =
  | { kind: 'answered'; answer: SampleAnswer; source: string; passed: Passed[] }
  | { kind: 'ask'; passed: Passed[] }
  | {
      kind: 'none';
      passed: Passed[];
      /** The capability the host's model would need (the plan names `host`), e.g. `sampling`. */
      hostNeeds?: Record<string, unknown>;
      failure?: ModelProviderError;
    };

export interface RouteInput {
  tool: ModelTool;
  step: string;
  request: SampleRequest;
  /** The request as sent (redacted). */
  params: CreateMessageRequestParams;
  sources: readonly ModelSource[];
  capabilities: ClientCapabilities;
  /** Legacy only: why the client's model cannot serve (refused, or sampling not declared at initialize). */
  hostUnavailable?: string;
  meter: UsageMeter;
  signal: AbortSignal;
}

/** The text blocks of a request's messages, joined with blank lines. */
function promptText(params: CreateMessageRequestParams): string {
  return params.messages
    .flatMap((message) => (Array.isArray(message.content) ? message.content : [message.content]))
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n\n');
}

const nameOf = (source: ModelSource): string =>
  source.kind === 'server' ? source.model.name : source.kind === 'host' ? 'host' : 'builtin';

async function askBuiltin(input: RouteInput): Promise<SampleAnswer | Passed> {
  const builtin = input.tool.builtin?.[input.step];
  if (builtin === undefined) {
    return { source: 'builtin', why: `${input.tool.name} has no built-in model for '${input.step}'`, notable: false };
  }
  const said = await builtin(
    { ...input.params, ...(input.request.outputSchema && { outputSchema: input.request.outputSchema }) },
    { step: input.step, prompt: promptText(input.params), signal: input.signal },
  );
  const result: CreateMessageResult = {
    role: 'assistant',
    content: said.content,
    model: said.model ?? 'builtin',
    ...(said.stopReason !== undefined && { stopReason: said.stopReason }),
  };
  const checked = checkAnswer(result, 'builtin', input.request.outputSchema);
  return checked.ok
    ? checked.answer
    : { source: 'builtin', why: `its answer is unusable: ${checked.reason}`, notable: true };
}

async function askProvider(
  input: RouteInput,
  source: Extract<ModelSource, { kind: 'server' }>,
): Promise<SampleAnswer | Passed> {
  const { model } = source;
  if ((input.params.tools !== undefined || input.params.toolChoice !== undefined) && model.usesTools !== true) {
    return { source: model.name, why: `${model.name} cannot use tools in sampling`, notable: false };
  }
  const ask = (params: CreateMessageRequestParams) =>
    input.meter.complete(model, { key: input.step, params, signal: input.signal });
  const first = await ask(input.params);
  const checked = checkAnswer(first, 'provider', input.request.outputSchema);
  if (checked.ok) return checked.answer;
  const second = await ask(repairRequest(input.params, first, checked.reason));
  const repaired = checkAnswer(second, 'provider', input.request.outputSchema);
  if (repaired.ok) return repaired.answer;
  return {
    source: model.name,
    why: `its answer is unusable (${repaired.reason}), also after one repair request`,
    notable: true,
  };
}

/** Walks `input.sources` in order, adding to `passed` (the reasons gathered before, if any). */
export async function routeQuestion(input: RouteInput, passed: Passed[] = []): Promise<RouteOutcome> {
  let hostNeeds: Record<string, unknown> | undefined;
  let failure: ModelProviderError | undefined;
  for (const source of input.sources) {
    if (source.kind === 'host') {
      const missing = missingCapability('sampling/createMessage', input.params, input.capabilities);
      if (missing === undefined) return { kind: 'ask', passed };
      hostNeeds = missing.required;
      const why = input.hostUnavailable ?? `the request did not declare the ${missing.capability} capability`;
      passed.push({ source: 'host', why, notable: input.hostUnavailable !== undefined });
      continue;
    }
    let outcome: SampleAnswer | Passed;
    try {
      outcome = source.kind === 'builtin' ? await askBuiltin(input) : await askProvider(input, source);
    } catch (error) {
      if (!isModelProviderError(error) || input.signal.aborted) throw error;
      failure = error;
      passed.push({ source: nameOf(source), why: `it failed: ${error.message}`, notable: true });
      continue;
    }
    if (isPassed(outcome)) {
      passed.push(outcome);
      continue;
    }
    return {
      kind: 'answered',
      answer: outcome,
      source: source.kind === 'server' ? source.model.name : 'builtin',
      passed,
    };
  }
  return {
    kind: 'none',
    passed,
    ...(hostNeeds !== undefined && { hostNeeds }),
    ...(failure !== undefined && { failure }),
  };
}

function isPassed(outcome: SampleAnswer | Passed): outcome is Passed {
  return 'why' in outcome && 'notable' in outcome;
}
