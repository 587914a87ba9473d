/**
 * Reading one model turn of the explore loop into the call log: its `tool_use` blocks, ids checked — present,
 * printable, bounded and unique in the whole conversation, since the server pairs every `tool_result` with one —
 * and their arguments validated. Calls past the tool-call bound are logged as not run.
 */
import type { CreateMessageResult } from '@modelcontextprotocol/server';

import { answerText } from '../../flow.js';
import { FlowAnswerError } from '../../flowAnswerError.js';
import { EXPLORE_KEY } from '../schema.js';
import { describeEnd, MAX_CALLS_PER_ANSWER, type ExploreBounds } from './bounds.js';
import {
  callCount,
  cutToJsonBytes,
  isLoggableId,
  logCall,
  logRefused,
  MAX_TEXT_BYTES,
  type ExploreState,
  type LoggedCall,
  type LoggedTurn,
} from './callLog.js';
import { readToolCall } from './tools.js';

interface ToolUse {
  id: unknown;
  name: unknown;
  input: unknown;
}

/** The `tool_use` blocks of an answer (content may be one block or several). */
export function toolUses(answer: CreateMessageResult): ToolUse[] {
  const blocks = (Array.isArray(answer.content) ? answer.content : [answer.content]) as unknown[];
  return blocks.filter(
    (block): block is ToolUse =>
      typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_use',
  );
}

/** The logged turn for an answer with tool calls. Throws `FlowAnswerError` when the answer cannot be used. */
export function readTurn(
  state: ExploreState,
  answer: CreateMessageResult,
  bounds: ExploreBounds,
  base: string,
): LoggedTurn {
  const uses = toolUses(answer);
  if (state.end !== undefined) {
    throw new FlowAnswerError(
      EXPLORE_KEY,
      `it called tools after tools were disabled (${describeEnd(state.end, bounds)} is reached); answer with the summary as text`,
    );
  }
  if (uses.length > MAX_CALLS_PER_ANSWER) {
    throw new FlowAnswerError(EXPLORE_KEY, `${uses.length} tool calls in one answer (at most ${MAX_CALLS_PER_ANSWER})`);
  }
  const ids = new Set(state.turns.flatMap((turn) => turn.c.map((call) => call.i)));
  for (const use of uses) {
    if (!isLoggableId(use.id)) {
      throw new FlowAnswerError(
        EXPLORE_KEY,
        'a tool_use block has no usable id (non-empty printable ASCII, at most 64 bytes)',
      );
    }
    if (ids.has(use.id)) throw new FlowAnswerError(EXPLORE_KEY, `tool_use id ${JSON.stringify(use.id)} is used twice`);
    ids.add(use.id);
  }
  let left = bounds.toolCalls - callCount(state);
  const calls: LoggedCall[] = uses.map((use) => {
    const id = use.id as string;
    const name = typeof use.name === 'string' ? use.name : '';
    if (left <= 0) return logRefused(id, name, 'over');
    left--;
    const call = readToolCall(name, use.input, base);
    return 'invalid' in call ? logRefused(id, name, 'invalid') : logCall(id, call);
  });
  const said = answerText(answer).trim();
  return { ...(said !== '' && { t: cutToJsonBytes(said, MAX_TEXT_BYTES) }), c: calls };
}
