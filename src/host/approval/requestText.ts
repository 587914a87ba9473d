/**
 * Everything one sampling request will send a model, as the lines a reviewer reads: the system prompt, every
 * message block in full (text, tool uses with their input, tool results with their content and structured
 * content), every tool offered with its description and input schema, and the other fields. Every string goes
 * through `revealInvisible`: characters that render as nothing are written as `⟨U+XXXX⟩` and counted, and the
 * text that tag characters spell is shown beside them. "View all" in the dialog pages through these lines; the
 * rules approver matches on the same text, so what a rule allows is what a person would have seen.
 */
import { revealInvisible, REVEALED_CHAR } from '../../protocol/sanitize.js';
import type { ApprovalRound } from '../types.js';

type SamplingRequest = ApprovalRound['requests'][number];

export interface RequestText {
  /** The request's lines, unbounded (the validation limits bound the request itself). */
  lines: string[];
  /** Characters shown as escapes across every field. */
  invisible: number;
  /** What tag characters spell, across every field. */
  tags: string;
}

interface Writer {
  lines: string[];
  invisible: number;
  tags: string;
}

/** Adds `text` under `indent`, revealed, one output line per line of text. */
function write(out: Writer, indent: string, text: string): void {
  const revealed = revealInvisible(text, { multiline: true });
  out.invisible += revealed.invisible;
  out.tags += revealed.tags;
  for (const line of revealed.text.split('\n')) out.lines.push(`${indent}${line}`);
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

type Block = Record<string, unknown>;

function asBlocks(content: unknown): Block[] {
  const list = Array.isArray(content) ? content : [content];
  return list.filter((block): block is Block => typeof block === 'object' && block !== null);
}

function writeBlock(out: Writer, indent: string, block: Block): void {
  const inner = `${indent}  `;
  switch (block.type) {
    case 'text':
      write(out, indent, String(block.text ?? ''));
      return;
    case 'tool_use':
      write(out, indent, `tool_use ${String(block.name ?? '')} (id ${String(block.id ?? '')}), input:`);
      write(out, inner, json(block.input ?? {}));
      return;
    case 'tool_result': {
      const error = block.isError === true ? ', an error' : '';
      write(out, indent, `tool_result for ${String(block.toolUseId ?? '')}${error}:`);
      for (const part of asBlocks(block.content)) writeBlock(out, inner, part);
      if (block.structuredContent !== undefined) {
        write(out, inner, 'structured content:');
        write(out, `${inner}  `, json(block.structuredContent));
      }
      return;
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as { uri?: unknown; text?: unknown; blob?: unknown };
      write(out, indent, `resource ${String(resource.uri ?? '')}:`);
      if (typeof resource.text === 'string') write(out, inner, resource.text);
      if (typeof resource.blob === 'string') write(out, inner, `(binary, ${resource.blob.length} base64 characters)`);
      return;
    }
    case 'resource_link':
      write(out, indent, `resource_link ${String(block.uri ?? '')} ${String(block.name ?? '')}`);
      if (typeof block.description === 'string') write(out, inner, block.description);
      return;
    case 'image':
    case 'audio': {
      const size = typeof block.data === 'string' ? `, ${block.data.length} base64 characters` : '';
      write(out, indent, `${block.type} ${String(block.mimeType ?? '')}${size}`);
      return;
    }
    default:
      write(out, indent, json(block));
  }
}

const SHOWN_ELSEWHERE = new Set(['systemPrompt', 'messages', 'tools', 'toolChoice', 'maxTokens', 'modelPreferences']);

/** The request's lines in full (see the file comment). `answeredBy`: the host model that will answer it. */
export function requestText(request: SamplingRequest, answeredBy?: string): RequestText {
  const out: Writer = { lines: [], invisible: 0, tags: '' };
  const { params } = request;
  write(out, '', `input ${request.key}`);
  if (answeredBy !== undefined) write(out, '  ', `answered by: ${answeredBy}`);
  write(out, '  ', `maxTokens: ${params.maxTokens}`);
  if (params.modelPreferences !== undefined)
    write(out, '  ', `modelPreferences: ${JSON.stringify(params.modelPreferences)}`);
  for (const [name, value] of Object.entries(params)) {
    if (SHOWN_ELSEWHERE.has(name) || value === undefined) continue;
    write(out, '  ', `${name}: ${JSON.stringify(value)}`);
  }
  if (params.systemPrompt !== undefined) {
    write(out, '  ', 'system prompt:');
    write(out, '    ', params.systemPrompt);
  }
  write(out, '  ', `messages (${params.messages.length}):`);
  params.messages.forEach((message, index) => {
    write(out, '    ', `[${index + 1}] ${String(message.role)}:`);
    for (const block of asBlocks(message.content)) writeBlock(out, '      ', block);
  });
  const tools = params.tools ?? [];
  if (tools.length > 0 || params.toolChoice !== undefined) {
    write(out, '  ', `tools (${tools.length}) · choice ${params.toolChoice?.mode ?? 'auto'}:`);
    for (const tool of tools) {
      const { name, description, inputSchema, ...rest } = tool as Record<string, unknown>;
      write(out, '    ', String(name));
      if (typeof description === 'string') {
        write(out, '      ', 'description:');
        write(out, '        ', description);
      }
      write(out, '      ', 'input schema:');
      write(out, '        ', json(inputSchema));
      if (Object.keys(rest).length > 0) write(out, '      ', `other fields: ${JSON.stringify(rest)}`);
    }
  }
  if (out.tags !== '') out.lines.push(`  ⚠ tag characters in this request spell: ${JSON.stringify(out.tags)}`);
  return out;
}

/**
 * What a rules file's `contains` is matched against: the request's lines as shown, the same with the escapes
 * taken out (a word split by zero-width characters still matches), and what tag characters spell.
 */
export function matchText(text: RequestText): string {
  const shown = text.lines.join('\n');
  return `${shown}\n${shown.replace(REVEALED_CHAR, '')}\n${text.tags}`.toLowerCase();
}
