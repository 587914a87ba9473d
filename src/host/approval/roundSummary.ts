/**
 * What the approval dialog shows for one round, as plain text. A header that every screen of the dialog repeats:
 * who asks (the server's self-declared name, marked unverified, and the key the host knows it by), the tool and
 * round, the host model that will answer (resolved from each request's preferences as the host will resolve it),
 * the tokens at stake, and a warning when any field carries characters that render invisibly. Then a bounded
 * preview: per request its key, model preferences, maxTokens, system prompt, tools (folded: name, the start of the
 * description, the schema's properties), the calls made so far and its messages. The preview budget counts every
 * field; what it leaves out is counted and left to "view all" (requestText.ts), which pages through everything.
 * Every server string goes through `revealedCut`: invisible characters are shown as `⟨U+XXXX⟩`, never dropped.
 */
import type { ModelPreferences, SamplingMessage } from '@modelcontextprotocol/client';

import { revealedCut } from '../../protocol/sanitize.js';
import { estimateTokens } from '../policies/validateRequest.js';
import { describeCalls, summarizeToolLoop } from '../toolSummary.js';
import type { ApprovalRound } from '../types.js';
import { requestText, type RequestText } from './requestText.js';

export const SUMMARY_LIMITS = {
  name: 80,
  serverKey: 200,
  tool: 80,
  inputKey: 80,
  systemPrompt: 600,
  /** Characters of each message shown. */
  message: 300,
  /** Characters of a tool's description shown folded. */
  toolDescription: 120,
  /** Tools shown folded per request. */
  tools: 8,
  /** Characters of previews in the whole round, across its requests: system prompts, messages and tools. */
  preview: 3000,
  hints: 5,
  hint: 40,
} as const;

type Block = Exclude<SamplingMessage['content'], unknown[]> | Record<string, unknown>;

/**
 * What the model will read in one block, as text: tool uses with their input, tool results with the text and
 * structured content they carry, so nothing readable is hidden behind a bare label.
 */
function blockText(block: Block): string {
  const fields = block as {
    type?: unknown;
    text?: unknown;
    name?: unknown;
    input?: unknown;
    content?: unknown;
    structuredContent?: unknown;
    mimeType?: unknown;
    uri?: unknown;
    resource?: { uri?: unknown; text?: unknown };
  };
  const { type } = fields;
  if (type === 'text') return String(fields.text ?? '');
  if (type === 'tool_use') return `[tool_use ${String(fields.name ?? '')}] ${JSON.stringify(fields.input ?? {})}`;
  if (type === 'tool_result') {
    const inner = Array.isArray(fields.content) ? (fields.content as Block[]) : [];
    const structured =
      fields.structuredContent === undefined ? [] : [`structured: ${JSON.stringify(fields.structuredContent)}`];
    return ['[tool_result]', ...inner.map(blockText), ...structured].join(' ');
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
  const names = (preferences.hints ?? []).map((hint) => revealedCut(hint.name ?? '', SUMMARY_LIMITS.hint));
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

/** The round as the dialog shows it: a header for every screen, a bounded preview, and everything in full. */
export interface RoundRendering {
  /** The server key and tool, as given (for remembering "always"). */
  serverKey: string;
  tool: string;
  title: string;
  header: string[];
  /** The bounded preview (the first screen). */
  preview: string[];
  /** Every request's lines in full, for "view all". */
  full: string[];
  /** Each request's full text, in order (what the rules approver matches). */
  requests: RequestText[];
  /** Invisible characters across the round. */
  invisible: number;
}

function thousands(value: number): string {
  return value.toLocaleString('en-US');
}

/** `openai:gpt-4o answers all 3 requests` or `builtin answers 2, openai:gpt-4o answers 1`. */
function describeModels(answeredBy: readonly string[] | undefined, count: number): string | undefined {
  if (answeredBy === undefined || answeredBy.length !== count) return undefined;
  const counts = new Map<string, number>();
  for (const id of answeredBy) counts.set(id, (counts.get(id) ?? 0) + 1);
  const safe = (id: string) => revealedCut(id, SUMMARY_LIMITS.name);
  if (counts.size === 1) {
    return `${safe(answeredBy[0] ?? '')} answers ${count === 1 ? 'the request' : `all ${count} requests`}`;
  }
  return [...counts].map(([id, n]) => `${safe(id)} answers ${n}`).join(', ');
}

function header(round: ApprovalRound, texts: readonly RequestText[]): string[] {
  const count = round.requests.length;
  const input = round.requests.reduce(
    (sum, { params }) =>
      sum +
      estimateTokens(
        Buffer.byteLength(
          JSON.stringify({ s: params.systemPrompt, m: params.messages, t: params.tools }) ?? '',
          'utf8',
        ),
      ),
    0,
  );
  const output = round.requests.reduce((sum, { params }) => sum + params.maxTokens, 0);
  const lines = [
    `Server: ${revealedCut(round.server.name, SUMMARY_LIMITS.name)} (unverified)`,
    `Key:    ${revealedCut(round.server.key, SUMMARY_LIMITS.serverKey)}`,
    `Tool:   ${revealedCut(round.tool, SUMMARY_LIMITS.tool)} · round ${round.round}`,
  ];
  const models = describeModels(round.answeredBy, count);
  if (models !== undefined) lines.push(`Model:  ${models}`);
  lines.push(
    `Tokens: ≈${thousands(input)} in + up to ${thousands(output)} out (${count} request${count === 1 ? '' : 's'})`,
  );
  const invisible = texts.reduce((sum, text) => sum + text.invisible, 0);
  const tags = texts.reduce((sum, text) => sum + Array.from(text.tags).length, 0);
  if (invisible > 0) {
    const tagNote = tags > 0 ? `, ${tags} of them tag characters that spell hidden text` : '';
    lines.push(
      `⚠ HIDDEN TEXT: ${invisible} invisible character${invisible === 1 ? '' : 's'} (shown as ⟨U+XXXX⟩)${tagNote}`,
    );
  }
  return lines;
}

/** A preview budget over every field: each takes at most its own cap and what the round has left. */
class PreviewBudget {
  left: number = SUMMARY_LIMITS.preview;
  cutFields = 0;
  cutChars = 0;
  /** The field revealed and cut, or undefined when the budget is spent (the field is counted as not shown). */
  take(text: string, cap: number, multiline = true): string | undefined {
    if (this.left <= 0) {
      this.cutFields++;
      this.cutChars += text.length;
      return undefined;
    }
    const shown = revealedCut(text, Math.min(cap, this.left), { multiline });
    this.left -= Math.min(cap, this.left, shown.length);
    return shown;
  }
}

function foldedTool(tool: Record<string, unknown>, budget: PreviewBudget): string | undefined {
  const name = revealedCut(String(tool.name ?? '?'), 64);
  const description = typeof tool.description === 'string' ? tool.description : '';
  const shown = budget.take(description, SUMMARY_LIMITS.toolDescription, false);
  if (shown === undefined) return undefined;
  const schema = tool.inputSchema as { properties?: unknown } | undefined;
  const properties =
    typeof schema?.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  const fields = budget.take(properties.join(', '), 120, false) ?? '…';
  return `    ▸ ${name}: ${shown === '' ? '(no description)' : shown} · input: ${fields === '' ? 'none' : fields}`;
}

function previewRequest(
  round: ApprovalRound,
  index: number,
  text: RequestText,
  budget: PreviewBudget,
  lines: string[],
): void {
  const request = round.requests[index];
  if (request === undefined) return;
  const { params } = request;
  lines.push('', `[${index + 1}/${round.requests.length}] input ${revealedCut(request.key, SUMMARY_LIMITS.inputKey)}`);
  const model = round.answeredBy?.[index];
  const preferences = describePreferences(params.modelPreferences);
  lines.push(
    `  model:     ${model === undefined ? preferences : `${revealedCut(model, SUMMARY_LIMITS.name)} (preferences: ${preferences})`}`,
  );
  lines.push(`  maxTokens: ${params.maxTokens}`);
  const system =
    params.systemPrompt === undefined ? '(none)' : budget.take(params.systemPrompt, SUMMARY_LIMITS.systemPrompt);
  if (system !== undefined) lines.push(`  system:    ${indent(system, '             ')}`);
  const loop = summarizeToolLoop(params);
  if (loop !== undefined) {
    const tools = (params.tools ?? []) as Array<Record<string, unknown>>;
    const names = tools.map((tool) => revealedCut(String(tool.name ?? '?'), 64));
    const offered = names.length === 0 ? 'none offered' : names.slice(0, SUMMARY_LIMITS.tools).join(', ');
    const more = names.length > SUMMARY_LIMITS.tools ? ` (+${names.length - SUMMARY_LIMITS.tools} more)` : '';
    lines.push(`  tools:     ${offered}${more} · choice ${loop.choice}`);
    for (const tool of tools.slice(0, SUMMARY_LIMITS.tools)) {
      const folded = foldedTool(tool, budget);
      if (folded !== undefined) lines.push(folded);
    }
    if (tools.length > 0) lines.push('      (descriptions and schemas in full: View all)');
    lines.push(
      `  calls:     ${loop.calls.length} so far${loop.calls.length === 0 ? '' : `: ${describeCalls(loop.calls)}`}`,
    );
  }
  lines.push(`  messages:  ${params.messages.length}`);
  for (const message of params.messages) {
    const shown = budget.take(messageText(message), SUMMARY_LIMITS.message);
    if (shown === undefined) continue;
    lines.push(`    ${revealedCut(String(message.role), 12)}: ${indent(shown, '      ')}`);
  }
  if (text.invisible > 0) {
    const spell = text.tags === '' ? '' : `; tag characters spell ${revealedCut(JSON.stringify(text.tags), 200)}`;
    lines.push(`  ⚠ ${text.invisible} invisible character${text.invisible === 1 ? '' : 's'}${spell}`);
  }
}

/** The dialog's header, preview and full text for one round. */
export function renderRound(round: ApprovalRound): RoundRendering {
  const texts = round.requests.map((request, index) => requestText(request, round.answeredBy?.[index]));
  const budget = new PreviewBudget();
  const preview: string[] = [];
  round.requests.forEach((_, index) => previewRequest(round, index, texts[index] as RequestText, budget, preview));
  if (budget.cutFields > 0) {
    preview.push(
      '',
      `… not shown here: ${budget.cutFields} field(s), ${thousands(budget.cutChars)} chars (preview limit) — choose View all to read everything`,
    );
  }
  const full = texts.flatMap((text, index) => [
    ...(index === 0 ? [] : ['']),
    `━━ [${index + 1}/${texts.length}] ━━`,
    ...text.lines,
  ]);
  const count = round.requests.length;
  return {
    serverKey: round.server.key,
    tool: round.tool,
    title: `Model use requested: ${count} sampling request${count === 1 ? '' : 's'}`,
    header: header(round, texts),
    preview,
    full,
    requests: texts,
    invisible: texts.reduce((sum, text) => sum + text.invisible, 0),
  };
}

/** The dialog's title and first screen for one round (header and preview). */
export function summarizeRound(round: ApprovalRound): { title: string; body: string } {
  const { title, header: lines, preview } = renderRound(round);
  return { title, body: [...lines, ...preview].join('\n') };
}
