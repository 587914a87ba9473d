/**
 * The tool loop's shape (tools in sampling, SEP-1577), checked in every request the host fulfils and
 * in every answer its model gives:
 *
 * - a request: `tool_use` blocks only in assistant messages and `tool_result` blocks only in user
 *   messages; every assistant message with tool uses is followed by a user message that holds only
 *   tool results, one for each of its ids — none missing, none twice, none for an id it did not use;
 *   tool use ids are unique within their message;
 * - an answer to a request that offered tools: no `tool_result`; tool use ids unique; only the tools
 *   the request offered; none at all when its `toolChoice` is `none`.
 *
 * Problems name message indexes and (bounded, cleaned) ids and tool names, never prompt text.
 */
import { terminalSafe } from '../../protocol/sanitize.js';
import type { SamplingBlock } from './contentBlocks.js';

export interface CheckedMessage {
  role: 'user' | 'assistant';
  content: SamplingBlock | SamplingBlock[];
}

type ToolUse = Extract<SamplingBlock, { type: 'tool_use' }>;
type ToolResult = Extract<SamplingBlock, { type: 'tool_result' }>;

/** A server- or model-chosen id or name as a problem quotes it. */
function named(value: string): string {
  return JSON.stringify(terminalSafe(value, 64));
}

function blocksOf(message: CheckedMessage | undefined): SamplingBlock[] {
  if (message === undefined) return [];
  return Array.isArray(message.content) ? message.content : [message.content];
}

function usesOf(message: CheckedMessage | undefined): ToolUse[] {
  return blocksOf(message).filter((block): block is ToolUse => block.type === 'tool_use');
}

function resultsOf(message: CheckedMessage | undefined): ToolResult[] {
  return blocksOf(message).filter((block): block is ToolResult => block.type === 'tool_result');
}

/** The first id used twice, if any. */
function repeatedId(uses: readonly ToolUse[]): string | undefined {
  const seen = new Set<string>();
  for (const use of uses) {
    if (seen.has(use.id)) return use.id;
    seen.add(use.id);
  }
  return undefined;
}

/** The results of message `index` against the tool uses of the message before it. */
function resultsProblem(messages: readonly CheckedMessage[], index: number): string | undefined {
  const here = `messages[${index}]`;
  const results = resultsOf(messages[index]);
  if (results.length !== blocksOf(messages[index]).length) {
    return `${here} mixes tool_result blocks with other content: a tool result message holds only tool results`;
  }
  const made = usesOf(messages[index - 1]);
  if (index === 0) return `${here} holds tool results, but no tool use comes before it`;
  if (made.length === 0) return `${here} holds tool results, but messages[${index - 1}] made no tool use`;
  const open = new Set(made.map((use) => use.id));
  const answered = new Set<string>();
  for (const result of results) {
    if (answered.has(result.toolUseId)) return `${here} answers tool use ${named(result.toolUseId)} twice`;
    if (!open.has(result.toolUseId)) {
      return `${here} answers tool use ${named(result.toolUseId)}, which messages[${index - 1}] did not make`;
    }
    answered.add(result.toolUseId);
  }
  const missing = made.find((use) => !answered.has(use.id));
  return missing === undefined
    ? undefined
    : `${here} leaves tool use ${named(missing.id)} of messages[${index - 1}] without a result`;
}

/** Whether `messages` keep the tool loop's pairing; the first problem otherwise. */
export function toolPairingProblem(messages: readonly CheckedMessage[]): string | undefined {
  for (const [index, message] of messages.entries()) {
    const here = `messages[${index}]`;
    const uses = usesOf(message);
    const results = resultsOf(message);
    if (message.role === 'user' && uses.length > 0) return `${here}: a tool_use block must be in an assistant message`;
    if (message.role === 'assistant' && results.length > 0) {
      return `${here}: a tool_result block must be in a user message`;
    }
    if (results.length > 0) {
      const problem = resultsProblem(messages, index);
      if (problem !== undefined) return problem;
    }
    if (uses.length > 0) {
      const repeated = repeatedId(uses);
      if (repeated !== undefined) return `${here} uses tool use id ${named(repeated)} twice`;
      if (resultsOf(messages[index + 1]).length === 0) {
        return index + 1 === messages.length
          ? `${here} ends the conversation with tool uses that no tool_result answers`
          : `messages[${index + 1}] must answer the tool uses of ${here} with tool_result blocks`;
      }
    }
  }
  return undefined;
}

/** What the request offered: the tool names, and its `toolChoice` mode (`auto` when it gave none). */
export interface OfferedTools {
  names: readonly string[];
  mode: 'auto' | 'required' | 'none';
}

/** Whether the model's answer keeps to what the request offered; the first problem otherwise. */
export function answerToolProblem(content: SamplingBlock | SamplingBlock[], offered: OfferedTools): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  if (blocks.some((block) => block.type === 'tool_result'))
    return 'holds a tool_result block (only the server sends those)';
  const uses = blocks.filter((block): block is ToolUse => block.type === 'tool_use');
  if (uses.length === 0) return undefined;
  if (offered.mode === 'none') return 'uses a tool, but the request said toolChoice "none"';
  const repeated = repeatedId(uses);
  if (repeated !== undefined) return `uses tool use id ${named(repeated)} twice`;
  const stranger = uses.find((use) => !offered.names.includes(use.name));
  return stranger === undefined ? undefined : `calls tool ${named(stranger.name)}, which the request did not offer`;
}
