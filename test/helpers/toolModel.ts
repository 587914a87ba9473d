/**
 * A scripted model that uses tools (SEP-1577): each turn answers from a script given the request, the turn number
 * and what the tool results said so far. Records every request. For the explore loop's tests on every path.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import type { CompletionModel } from '../../src/models/modelSource.js';
import { toolUseAnswer } from '../../src/models/scripted.js';

export type ToolCallSpec = { name: string; input: Record<string, unknown>; id?: string };
export type ScriptedTurn =
  { text?: string; calls?: ToolCallSpec[] } | { summary: string } | { raw: CreateMessageResult };

export interface ToolScriptedModel extends CompletionModel {
  readonly requests: CreateMessageRequestParams[];
}

/** The tool_result blocks of the last user message of a request. */
export function lastResults(
  params: CreateMessageRequestParams,
): Array<{ toolUseId: string; text: string; isError: boolean }> {
  const last = params.messages[params.messages.length - 1];
  const blocks = (Array.isArray(last?.content) ? last.content : [last?.content]) as Array<Record<string, any>>;
  return blocks
    .filter((block) => block?.['type'] === 'tool_result')
    .map((block) => ({
      toolUseId: block['toolUseId'],
      text: (block['content'] as Array<{ text: string }>).map((part) => part.text).join('\n'),
      isError: block['isError'] === true,
    }));
}

/** Turns a script step into a sampling result (tool_use ids `t<turn>_<n>` unless given). */
export function answerOf(turn: ScriptedTurn, index: number, model: string): CreateMessageResult {
  if ('raw' in turn) return turn.raw;
  if ('summary' in turn)
    return { role: 'assistant', content: { type: 'text', text: turn.summary }, model, stopReason: 'endTurn' };
  return toolUseAnswer(
    { text: turn.text, calls: turn.calls ?? [] },
    model,
    (n) => `t${index}_${n}`,
  ) as CreateMessageResult;
}

export function createToolScriptedModel(
  script: (params: CreateMessageRequestParams, turn: number) => ScriptedTurn,
  options: { name?: string; usesTools?: boolean } = {},
): ToolScriptedModel {
  const requests: CreateMessageRequestParams[] = [];
  const name = options.name ?? 'scripted-tools';
  return {
    name,
    usesTools: options.usesTools ?? true,
    requests,
    async complete(request) {
      requests.push(request.params);
      return answerOf(script(request.params, requests.length - 1), requests.length - 1, name);
    },
  };
}
