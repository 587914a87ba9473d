/**
 * What a sampling request in a tool loop (SEP-1577) shows a user — in the approval dialog, the trace
 * and the audit log: the tools offered, the `toolChoice`, and the tool calls already made in its
 * conversation as `name target` (`read_file README.md`, `search "parseArgs" in src`); and what the host
 * model's answer asks for, the same way. Every name and target is cleaned and bounded; nothing else
 * of the conversation (no tool results, no text) is shown.
 */
import { terminalSafe } from '../protocol/sanitize.js';

export const TOOL_SUMMARY_LIMITS = {
  /** Characters of a tool name. */
  name: 64,
  /** Characters of a call's target. */
  target: 80,
  /** Tools and calls listed before `+N more`. */
  listed: 12,
  /** Characters of a whole list of calls. */
  calls: 600,
} as const;

export interface ToolCallSummary {
  name: string;
  /** The path, pattern or other argument the call points at ('' when none). */
  target: string;
}

export interface ToolLoopSummary {
  /** The names of the tools offered (empty when the request gives `toolChoice` alone). */
  tools: string[];
  /** `auto` (also when the request gives no `toolChoice`), `required` or `none`. */
  choice: string;
  /** The tool calls already made in the conversation, in order. */
  calls: ToolCallSummary[];
}

const PATH_KEYS = ['path', 'file', 'directory', 'dir', 'uri', 'url', 'name'];
const PATTERN_KEYS = ['pattern', 'query', 'regex', 'text'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstString(input: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) if (typeof input[key] === 'string') return input[key];
  return undefined;
}

/** What a call's input points at: `PATH`, `"PATTERN"`, `"PATTERN" in PATH`, else its first string. */
export function callTarget(input: unknown): string {
  if (!isRecord(input)) return '';
  const path = firstString(input, PATH_KEYS);
  const pattern = firstString(input, PATTERN_KEYS);
  const fallback = Object.values(input).find((value): value is string => typeof value === 'string');
  const quotedPattern = pattern === undefined ? undefined : JSON.stringify(pattern);
  const target =
    quotedPattern !== undefined && path !== undefined
      ? `${quotedPattern} in ${path}`
      : (quotedPattern ?? path ?? fallback ?? '');
  return terminalSafe(target, TOOL_SUMMARY_LIMITS.target);
}

function callOf(block: Record<string, unknown>): ToolCallSummary {
  return {
    name: terminalSafe(typeof block['name'] === 'string' ? block['name'] : '?', TOOL_SUMMARY_LIMITS.name),
    target: callTarget(block['input']),
  };
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(content) ? content : [content]).filter(isRecord);
}

/** The tool calls (`tool_use` blocks) in `content`: an answer's, or one message's. */
export function toolCallsIn(content: unknown): ToolCallSummary[] {
  return blocksOf(content)
    .filter((block) => block['type'] === 'tool_use')
    .map(callOf);
}

/** The tool loop of a sampling request's params, or undefined when it offers no tools and carries no calls. */
export function summarizeToolLoop(params: unknown): ToolLoopSummary | undefined {
  if (!isRecord(params)) return undefined;
  const messages = Array.isArray(params['messages']) ? params['messages'] : [];
  const calls = messages.flatMap((message) =>
    isRecord(message) && message['role'] === 'assistant' ? toolCallsIn(message['content']) : [],
  );
  const tools = Array.isArray(params['tools'])
    ? params['tools'].map((tool) =>
        terminalSafe(isRecord(tool) && typeof tool['name'] === 'string' ? tool['name'] : '?', TOOL_SUMMARY_LIMITS.name),
      )
    : [];
  const toolChoice = params['toolChoice'];
  if (tools.length === 0 && toolChoice === undefined && calls.length === 0) return undefined;
  const mode = isRecord(toolChoice) ? toolChoice['mode'] : undefined;
  return { tools, choice: typeof mode === 'string' ? terminalSafe(mode, 16) : 'auto', calls };
}

/** `a, b, c (+2 more)` from the first `TOOL_SUMMARY_LIMITS.listed` items. */
export function listed(items: readonly string[], separator = ', '): string {
  const shown = items.slice(0, TOOL_SUMMARY_LIMITS.listed).join(separator);
  const more = items.length - TOOL_SUMMARY_LIMITS.listed;
  return more > 0 ? `${shown} (+${more} more)` : shown;
}

/** `read_file README.md` */
export function describeCall(call: ToolCallSummary): string {
  return call.target === '' ? call.name : `${call.name} ${call.target}`;
}

/** `read_file README.md; list_directory src`, bounded; `none` for no calls. */
export function describeCalls(calls: readonly ToolCallSummary[]): string {
  return calls.length === 0 ? 'none' : terminalSafe(listed(calls.map(describeCall), '; '), TOOL_SUMMARY_LIMITS.calls);
}
