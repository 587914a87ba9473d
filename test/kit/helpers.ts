/** Calling a model tool on a kit as the server would, round after round, with the client's answers scripted. */
import type { CallToolResult, ClientCapabilities, InputRequiredResult } from '@modelcontextprotocol/server';

import type { ToolContext } from '../../src/flows/tool.js';
import { runModelTool } from '../../src/kit/runModelTool.js';
import type { ModelKit } from '../../src/kit/kit.js';
import type { ModelTool } from '../../src/kit/modelTool.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import type { ModelPlan, ModelSource } from '../../src/models/sources.js';
import { firstCallContext } from '../helpers/toolContext.js';

export type Outcome = CallToolResult | InputRequiredResult;

export function isInputRequired(outcome: Outcome): outcome is InputRequiredResult {
  return (outcome as { resultType?: string }).resultType === 'input_required';
}

export interface CallOptions {
  capabilities?: ClientCapabilities;
  requestState?: unknown;
  inputResponses?: Record<string, unknown>;
  context?: Partial<ToolContext>;
}

export function callOnce(tool: ModelTool, kit: ModelKit, args: unknown, options: CallOptions = {}): Promise<Outcome> {
  return runModelTool(
    tool,
    kit,
    tool.input.parse(args),
    firstCallContext({
      clientCapabilities: options.capabilities ?? {},
      requestState: options.requestState,
      inputResponses: options.inputResponses,
      ...options.context,
    }),
  );
}

/** Answers every round with `answer(key, request)` until the call completes (at most `limit` rounds). */
export async function callToEnd(
  tool: ModelTool,
  kit: ModelKit,
  args: unknown,
  answer: (key: string, request: { method: string; params: unknown }) => unknown,
  options: CallOptions & { limit?: number } = {},
): Promise<{ result: CallToolResult; rounds: InputRequiredResult[] }> {
  const rounds: InputRequiredResult[] = [];
  let outcome = await callOnce(tool, kit, args, options);
  while (isInputRequired(outcome)) {
    rounds.push(outcome);
    if (rounds.length > (options.limit ?? 8)) throw new Error('too many rounds');
    const responses = Object.fromEntries(
      Object.entries(outcome.inputRequests ?? {}).map(([key, request]) => [
        key,
        answer(key, request as { method: string; params: unknown }),
      ]),
    );
    outcome = await callOnce(tool, kit, args, {
      ...options,
      requestState: outcome.requestState,
      inputResponses: responses,
    });
  }
  return { result: outcome, rounds };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

export function hostAnswer(text: string): unknown {
  return { role: 'assistant', content: { type: 'text', text }, model: 'host-model', stopReason: 'endTurn' };
}

/** A server-owned model answering with `reply(prompt text)`, recording every request. */
export function fakeModel(
  name: string,
  reply: (prompt: string) => string | Error,
): CompletionModel & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    name,
    prompts,
    async complete(request) {
      const prompt = request.params.messages
        .flatMap((message) => (Array.isArray(message.content) ? message.content : [message.content]))
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('\n');
      prompts.push(prompt);
      const said = reply(prompt);
      if (said instanceof Error) throw said;
      return { role: 'assistant', content: { type: 'text', text: said }, model: name };
    },
  };
}

/** A plan of one preference list for every step. */
export function planOf(...sources: ModelSource[]): ModelPlan {
  return {
    spec: 'test',
    sourceFor: (_key, capabilities) => sources.find((s) => s.kind !== 'host' || capabilities.sampling !== undefined),
    preferences: () => sources,
  };
}
