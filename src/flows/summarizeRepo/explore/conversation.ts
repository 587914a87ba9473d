/**
 * Rebuilds the explore conversation from the call log: the opening prompt, then per model turn the assistant's
 * message (its short text and `tool_use` blocks) and a user message holding only `tool_result` blocks, one per
 * `tool_use` id, made by running the logged calls again against the repository (read-only, deterministic). Nothing
 * of a file is carried between rounds; what the model saw is recomputed, within the same budgets:
 * - each result is capped (`perCallBytes`), all results together at `bounds.bytes` (later calls get less);
 * - a call repeated verbatim is not run again: its result says so (and counts toward the repeat bound);
 * - calls that could not be run (unknown tool, invalid arguments, over the tool-call bound) get an error result;
 * - every text the model will see is redacted (one scan), each finding reported against its file; read_file and
 *   search results come redacted already (a file is decided whole before a window or a line is cut from it), and
 *   what they replaced is reported the same way.
 */
import type { SamplingMessage } from '@modelcontextprotocol/server';

import type { ExploreCall, ExploredFile, Explorer } from '../../../repo/explore/index.js';
import { redactTexts } from '../../../repo/secrets/index.js';
import type { RedactionEntry } from '../redaction.js';
import { callOf, type ExploreState } from './callLog.js';
import { readToolCall, targetOf, toolInput } from './tools.js';

/** What one call returned, for the structured result. */
export interface CallReport {
  tool: string;
  target: string;
  bytes: number;
  error?: string;
}

export interface Rebuilt {
  messages: SamplingMessage[];
  calls: CallReport[];
  /** Files read_file showed (each once, its widest window). */
  files: ExploredFile[];
  /** Bytes of tool results shown in all. */
  bytes: number;
  /** Calls that repeated an earlier one verbatim. */
  repeats: number;
  redacted: RedactionEntry[];
}

export interface RebuildInput {
  explorer: Explorer;
  state: ExploreState;
  /** The opening user message. */
  prompt: string;
  /** Scope of calls whose path is omitted (the summarized directory). */
  base: string;
  perCallBytes: number;
  totalBytes: number;
  toolCallBound: number;
}

interface ResultText {
  id: string;
  text: string;
  isError: boolean;
  /** Where a redaction finding in it is reported. */
  where: string;
  /** Secrets the explorer replaced already (it redacts a file whole before it takes a window or a line). */
  found?: Array<[kind: string, count: number]>;
}

const keyOf = (call: ExploreCall): string => JSON.stringify(toolInput(call)) + call.tool;

function refusedText(refused: { refused: 'invalid' | 'over'; name: string }, base: string, bound: number): string {
  if (refused.refused === 'over') {
    return `Not run: the exploration's bound of ${bound} tool calls is reached. Answer with your summary.`;
  }
  const reading = readToolCall(refused.name, undefined, base);
  return `Not run: ${'invalid' in reading ? reading.invalid : 'invalid arguments'}.`;
}

export async function rebuildConversation(input: RebuildInput): Promise<Rebuilt> {
  const { explorer, state } = input;
  const messages: SamplingMessage[] = [];
  const results: ResultText[][] = [];
  const calls: CallReport[] = [];
  const files = new Map<string, ExploredFile>();
  const seen = new Map<string, number>();
  let bytes = 0;
  let repeats = 0;
  for (const turn of state.turns) {
    const uses = turn.c.map((entry) => {
      const call = callOf(entry);
      return 'refused' in call
        ? { type: 'tool_use' as const, id: entry.i, name: call.name, input: {} }
        : { type: 'tool_use' as const, id: entry.i, name: call.tool, input: toolInput(call) };
    });
    messages.push({
      role: 'assistant',
      content: [...(turn.t === undefined ? [] : [{ type: 'text' as const, text: turn.t }]), ...uses],
    });
    const turnResults: ResultText[] = [];
    for (const entry of turn.c) {
      const call = callOf(entry);
      if ('refused' in call) {
        const text = refusedText(call, input.base, input.toolCallBound);
        turnResults.push({ id: entry.i, text, isError: true, where: `(${call.name} result)` });
        calls.push({
          tool: call.name,
          target: '',
          bytes: 0,
          error: call.refused === 'over' ? 'over_bound' : 'invalid',
        });
        continue;
      }
      const key = keyOf(call);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        repeats++;
        const text = `Not run again: this is call ${earlier} repeated; its result is above. Look elsewhere, or answer with your summary.`;
        turnResults.push({ id: entry.i, text, isError: true, where: `(${call.tool} result)` });
        calls.push({ tool: call.tool, target: targetOf(call), bytes: 0, error: 'repeated' });
        continue;
      }
      seen.set(key, calls.length + 1);
      const result = await explorer.run(call, Math.min(input.perCallBytes, input.totalBytes - bytes));
      bytes += result.bytes;
      if (result.file !== undefined) {
        const known = files.get(result.file.path);
        if (known === undefined || known.bytesShown < result.file.bytesShown) files.set(result.file.path, result.file);
      }
      turnResults.push({
        id: entry.i,
        text: result.text,
        isError: result.error !== undefined,
        where: call.tool === 'read_file' && result.file !== undefined ? result.file.path : `(${call.tool} result)`,
        ...(result.redacted !== undefined && { found: result.redacted }),
      });
      calls.push({
        tool: call.tool,
        target: targetOf(call),
        bytes: result.bytes,
        ...(result.error !== undefined && { error: result.error }),
      });
    }
    results.push(turnResults);
    messages.push({ role: 'user', content: [] });
  }

  // One redaction scan for the prompt and every result; each finding is reported against its file.
  const flat = results.flat();
  const redacted = await redactTexts([input.prompt, ...flat.map((result) => result.text)]);
  const entries: RedactionEntry[] = [];
  redacted.forEach((found, index) => {
    const where = index === 0 ? '(explore prompt)' : flat[index - 1]!.where;
    const kinds = [...found.kinds, ...(index === 0 ? [] : (flat[index - 1]!.found ?? []))];
    for (const [kind, count] of kinds) entries.push({ path: where.slice(0, 100), kind, count });
  });
  let next = 1;
  for (const [turn, turnResults] of results.entries()) {
    messages[turn * 2 + 1] = {
      role: 'user',
      content: turnResults.map((result) => ({
        type: 'tool_result' as const,
        toolUseId: result.id,
        content: [{ type: 'text' as const, text: redacted[next++]!.text }],
        ...(result.isError && { isError: true }),
      })),
    };
  }
  return {
    messages: [{ role: 'user', content: { type: 'text', text: redacted[0]!.text } }, ...messages],
    calls,
    files: [...files.values()],
    bytes,
    repeats,
    redacted: entries,
  };
}
