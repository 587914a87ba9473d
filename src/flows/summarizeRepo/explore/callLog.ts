/**
 * The explore loop's sealed state: a compact log of the tool calls made so far — per model turn, its short text
 * and its calls (tool, arguments, `tool_use` id) — never a file's contents. Each round rebuilds the conversation
 * by running the logged calls again (conversation.ts). Every logged string is bounded in UTF-8 bytes of its JSON
 * form, so the state stays under the codec's cap at the loop's maximum length (test/flows/explore/stateSize.test.ts).
 */
import type { ExploreCall } from '../../../repo/explore/index.js';

/** Why the exploration ended: the model answered on its own, or a bound made the server ask for the answer. */
export type EndReason = 'model' | 'tool_calls' | 'rounds' | 'bytes' | 'time' | 'repeats';

/** One `tool_use` of the model, as logged. `i` is its id; exactly one of the other shapes. */
export type LoggedCall =
  /** list_directory */
  | { i: string; l: string }
  /** read_file: path, start line, line count */
  | { i: string; r: string; s: number; m: number }
  /** search: pattern, regex flag, scope */
  | { i: string; q: string; x?: 1; p: string }
  /** A call that could not be run: an unknown tool or invalid arguments (`n`: the name as given, cut). */
  | { i: string; n: string; e: 1 }
  /** A call beyond the tool-call bound: answered "not run" (`n`: the name as given, cut). */
  | { i: string; n: string; o: 1 };

export interface LoggedTurn {
  /** The model's short text beside its tool calls, cut (absent when it said nothing). */
  t?: string;
  c: LoggedCall[];
}

export interface ExploreState {
  phase: 'explore';
  turns: LoggedTurn[];
  /** When the exploration started (epoch ms): the wall-time bound counts from here. */
  t0: number;
  /** Set once a bound was reached: the next request disables tools and asks for the final answer. */
  end?: Exclude<EndReason, 'model'>;
}

/** Bytes (UTF-8, JSON-encoded) a logged id, the model's text and a tool name may take. */
export const MAX_ID_BYTES = 64;
export const MAX_TEXT_BYTES = 80;
const MAX_NAME_BYTES = 40;

export const jsonBytes = (value: string): number => Buffer.byteLength(JSON.stringify(value), 'utf8') - 2;

/** `text` cut so that its JSON form takes at most `maxBytes` bytes; whitespace collapsed. */
export function cutToJsonBytes(text: string, maxBytes: number): string {
  let cut = text.replace(/\s+/g, ' ').trim();
  if (jsonBytes(cut) <= maxBytes) return cut;
  // Characters are at least one byte: start from a cut that cannot be too short, shrink until it fits.
  cut = [...cut].slice(0, maxBytes).join('');
  while (cut.length > 0 && jsonBytes(`${cut}…`) > maxBytes) cut = [...cut].slice(0, -1).join('');
  return `${cut}…`;
}

/** Whether a model's `tool_use` id can be logged: non-empty printable ASCII without spaces, bounded. */
export function isLoggableId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && /^[\x21-\x7e]+$/.test(id) && jsonBytes(id) <= MAX_ID_BYTES;
}

export function logCall(id: string, call: ExploreCall): LoggedCall {
  switch (call.tool) {
    case 'list_directory':
      return { i: id, l: call.path };
    case 'read_file':
      return { i: id, r: call.path, s: call.startLine, m: call.maxLines };
    case 'search':
      return { i: id, q: call.pattern, ...(call.regex && { x: 1 as const }), p: call.path };
  }
}

export function logRefused(id: string, name: string, kind: 'invalid' | 'over'): LoggedCall {
  const n = cutToJsonBytes(name, MAX_NAME_BYTES);
  return kind === 'invalid' ? { i: id, n, e: 1 } : { i: id, n, o: 1 };
}

/** The call a log entry stands for, or what it was when it could not be run. */
export function callOf(entry: LoggedCall): ExploreCall | { refused: 'invalid' | 'over'; name: string } {
  if ('l' in entry) return { tool: 'list_directory', path: entry.l };
  if ('r' in entry) return { tool: 'read_file', path: entry.r, startLine: entry.s, maxLines: entry.m };
  if ('q' in entry) return { tool: 'search', pattern: entry.q, regex: entry.x === 1, path: entry.p };
  return { refused: 'e' in entry ? 'invalid' : 'over', name: entry.n };
}

/** All calls the model made (run, refused and over the bound). */
export function callCount(state: ExploreState): number {
  return state.turns.reduce((sum, turn) => sum + turn.c.length, 0);
}
