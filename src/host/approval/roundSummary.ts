/**
 * What the approval dialog shows for one round, as plain text: who asks (the server's self-declared
 * name, marked unverified, and the key the host knows it by), the tool, the round, and for every
 * sampling request its key, system prompt, a bounded preview of its messages, maxTokens and model
 * preferences; in a tool loop (SEP-1577) also the tools offered, the tool choice, and the tool calls
 * the model already made (`name target`). Every server-supplied string goes through `terminalSafe`;
 * the whole preview is bounded.
 */
import type { ModelPreferences, SamplingMessage } from '@modelcontextprotocol/client';

import { terminalSafe } from '../../protocol/sanitize.js';
import { describeCalls, listed, summarizeToolLoop } from '../toolSummary.js';
import type { ApprovalRound } from '../types.js';

export const SUMMARY_LIMITS = {
  name: 80,
  serverKey: 200,
  tool: 80,
  inputKey: 80,
  systemPrompt: 600,
  /** Characters of each message shown. */
  message: 300,
  /** Characters of message previews in the whole round, across its requests. */
  preview: 3000,
  hints: 5,
  hint: 40,
} as const;

type Block = Exclude<SamplingMessage['content'], unknown[]> | Record<string, unknown>;

/**
 * What the model will read in one block, as text: tool uses with their input, and tool results with
 * the text they carry (the model reads it as much as a text block's), so nothing readable is hidden
 * behind a bare label.
 */
function blockText(block: Block): string {
  const fields = block as {
    type?: unknown;
    text?: unknown;
    name?: unknown;
    input?: unknown;
    content?: unknown;
    mimeType?: unknown;
    uri?: unknown;
    resource?: { uri?: unknown; text?: unknown };
  };
  const { type } = fields;
  if (type === 'text') return String(fields.text ?? '');
  if (type === 'tool_use') return `[tool_use ${String(fields.name ?? '')}] ${JSON.stringify(fields.input ?? {})}`;
  if (type === 'tool_result') {
    const inner = Array.isArray(fields.content) ? (fields.content as Block[]) : [];
    return ['[tool_result]', ...inner.map(blockText)].join(' ');
  }
  if (type === 'resource') {
    const text = typeof fields.resource?.text === 'string' ? ` ${fields.resource.text}` : '';
    return `[resource ${String(fields.resource?.uri ?? '')}]${text}`;
  }
  if (type === 'resource_link') return `[resource_link ${String(fields.uri ?? '')}]`;
  if (type === 'image' || type === 'audio') return `[${type} ${String(fields.mimeType ?? '')}]`;
  return `[${typeof type === 'string' ? type : 'content'}]`;
}

function messageText(message: SamplingMessage): string {
  const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as Block[];
  return blocks.map(blockText).join(' ');
}

function priority(value: number | undefined): string {
  return value === undefined ? '–' : String(value);
}

/** `hints a, b · cost 0.8 · speed – · intelligence 0.2`, or `none` when the server gave none. */
export function describePreferences(preferences: ModelPreferences | undefined): string {
  if (preferences === undefined) return 'none';
  const names = (preferences.hints ?? []).map((hint) => terminalSafe(hint.name ?? '', SUMMARY_LIMITS.hint));
  const shown = names.slice(0, SUMMARY_LIMITS.hints).join(', ');
  const more = names.length > SUMMARY_LIMITS.hints ? ` (+${names.length - SUMMARY_LIMITS.hints} more)` : '';
  const hints = names.length === 0 ? 'hints none' : `hints ${shown}${more}`;
  const { costPriority, speedPriority, intelligencePriority } = preferences;
  return `${hints} · cost ${priority(costPriority)} · speed ${priority(speedPriority)} · intelligence ${priority(intelligencePriority)}`;
}

/** Indents continuation lines so a multi-line field stays under its label. */
function indent(text: string, prefix: string): string {
  return text.replace(/\n/g, `\n${prefix}`);
}

/** The dialog's title and body for one round. */
export function summarizeRound(round: ApprovalRound): { title: string; body: string } {
  const name = terminalSafe(round.server.name, SUMMARY_LIMITS.name);
  const lines = [
    `Server: ${name} (unverified)`,
    `Key:    ${terminalSafe(round.server.key, SUMMARY_LIMITS.serverKey)}`,
    `Tool:   ${terminalSafe(round.tool, SUMMARY_LIMITS.tool)} · round ${round.round}`,
  ];
  let budget: number = SUMMARY_LIMITS.preview;
  let cutMessages = 0;
  round.requests.forEach((request, index) => {
    const { params } = request;
    lines.push(
      '',
      `[${index + 1}/${round.requests.length}] input ${terminalSafe(request.key, SUMMARY_LIMITS.inputKey)}`,
    );
    const system =
      params.systemPrompt === undefined
        ? '(none)'
        : terminalSafe(params.systemPrompt, SUMMARY_LIMITS.systemPrompt, { multiline: true });
    lines.push(`  system:    ${indent(system, '             ')}`);
    lines.push(`  maxTokens: ${params.maxTokens}`);
    lines.push(`  model:     ${describePreferences(params.modelPreferences)}`);
    const loop = summarizeToolLoop(params);
    if (loop !== undefined) {
      const offered = loop.tools.length === 0 ? 'none offered' : listed(loop.tools);
      lines.push(`  tools:     ${offered} · choice ${loop.choice}`);
      lines.push(
        `  calls:     ${loop.calls.length} so far${loop.calls.length === 0 ? '' : `: ${describeCalls(loop.calls)}`}`,
      );
    }
    lines.push(`  messages:  ${params.messages.length}`);
    for (const message of params.messages) {
      if (budget <= 0) {
        cutMessages++;
        continue;
      }
      const shown = Math.min(SUMMARY_LIMITS.message, budget);
      const text = terminalSafe(messageText(message), shown, { multiline: true });
      budget -= Math.min(shown, text.length);
      const role = terminalSafe(String(message.role), 12);
      lines.push(`    ${role}: ${indent(text, '      ')}`);
    }
  });
  if (cutMessages > 0) lines.push('', `… ${cutMessages} more message(s) not shown (preview limit)`);
  const count = round.requests.length;
  return { title: `Model use requested: ${count} sampling request${count === 1 ? '' : 's'}`, body: lines.join('\n') };
}
