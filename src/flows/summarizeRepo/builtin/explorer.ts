/**
 * The built-in model's explore mode: a deterministic explorer, so the whole tool loop runs (and is tested) with no
 * language model. It reads the conversation the server rebuilt and, in order:
 * 1. lists the directory being summarized;
 * 2. reads the README it found there and the manifests the repository facts name;
 * 3. reads the entry points the facts name;
 * 4. answers with the built-in summary of the prompt and every file block it was shown —
 * or answers at once when the server disabled tools (`toolChoice: none`). It reads the first three manifests and
 * entry points the facts name, none twice: at most 8 calls in 4 rounds, within the default bounds.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/server';

import { parseFacts } from '../factsText.js';
import { answerSummary } from './summary.js';

/** Manifests and entry points read, each: the first the facts name (primary first). */
const MAX_NAMED = 3;
const README = /^readme(\.[A-Za-z0-9]+)?$/i;

interface Seen {
  prompt: string;
  listed: boolean;
  read: Set<string>;
  calls: number;
  results: string[];
}

type Block = { type: string; [key: string]: unknown };

function blocksOf(content: unknown): Block[] {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.filter((block): block is Block => typeof block === 'object' && block !== null);
}

/** Whether a request is an explore round (it offers the read_file tool). */
export function isExploreRequest(params: CreateMessageRequestParams): boolean {
  return params.tools?.some((tool) => tool.name === 'read_file') === true;
}

function readConversation(params: CreateMessageRequestParams): Seen {
  const seen: Seen = { prompt: '', listed: false, read: new Set(), calls: 0, results: [] };
  for (const [index, message] of params.messages.entries()) {
    for (const block of blocksOf(message.content)) {
      if (index === 0 && block.type === 'text') seen.prompt = String(block['text'] ?? '');
      if (block.type === 'tool_use') {
        seen.calls++;
        const input = (block['input'] ?? {}) as Record<string, unknown>;
        if (block['name'] === 'list_directory') seen.listed = true;
        if (block['name'] === 'read_file' && typeof input['path'] === 'string') seen.read.add(input['path']);
      }
      if (block.type === 'tool_result' && block['isError'] !== true) {
        for (const part of blocksOf(block['content'])) {
          if (part.type === 'text') seen.results.push(String(part['text'] ?? ''));
        }
      }
    }
  }
  return seen;
}

/** The directory being summarized, from the prompt's `Directory:` line (`''` for the root). */
function baseOf(prompt: string): string {
  return /^Directory: (.*?) \(tool paths/m.exec(prompt)?.[1] ?? '';
}

/** The README named in a list_directory result of the base directory. */
function readmeOf(results: readonly string[], base: string): string | undefined {
  for (const result of results) {
    if (!result.startsWith('Directory ')) continue;
    const name = result.split('\n').find((line) => README.test(line.trim()));
    if (name !== undefined) return base === '' ? name.trim() : `${base}/${name.trim()}`;
  }
  return undefined;
}

/** The next calls, or none when it has seen enough. */
function nextCalls(seen: Seen): { say: string; calls: Array<{ name: string; input: Record<string, unknown> }> } {
  const base = baseOf(seen.prompt);
  if (!seen.listed) return { say: 'Listing the top directory.', calls: [{ name: 'list_directory', input: {} }] };
  const facts = parseFacts(seen.prompt);
  const unread = (paths: Array<string | undefined>): string[] => [
    ...new Set(paths.filter((path): path is string => path !== undefined && !seen.read.has(path))),
  ];
  const named = (items: ReadonlyArray<{ path: string }> | undefined): string[] =>
    (items ?? []).slice(0, MAX_NAMED).map((item) => item.path);
  const first = unread([readmeOf(seen.results, base), ...named(facts?.manifests)]);
  const reads = (paths: string[], maxLines: number) =>
    paths.map((path) => ({ name: 'read_file', input: { path, startLine: 1, maxLines } }));
  if (first.length > 0) return { say: 'Reading the README and the manifests.', calls: reads(first, 200) };
  const entries = unread(named(facts?.entryPoints));
  if (entries.length > 0) return { say: 'Reading the entry points.', calls: reads(entries, 120) };
  return { say: '', calls: [] };
}

/** The built-in explorer's answer to one explore round. */
export function answerExplore(params: CreateMessageRequestParams, model: string): CreateMessageResult {
  const seen = readConversation(params);
  const next = params.toolChoice?.mode === 'none' ? { say: '', calls: [] } : nextCalls(seen);
  if (next.calls.length === 0) {
    // The summary prompt's own form: the prompt (header, facts) and the file blocks shown by read_file.
    const text = [seen.prompt, ...seen.results.filter((result) => result.startsWith('<<<FILE '))].join('\n\n');
    return {
      role: 'assistant',
      content: { type: 'text', text: answerSummary(text, params.maxTokens) },
      model,
      stopReason: 'endTurn',
    };
  }
  const uses = next.calls.map((call, index) => ({
    type: 'tool_use' as const,
    id: `builtin_${seen.calls + index + 1}`,
    name: call.name,
    input: call.input,
  }));
  return {
    role: 'assistant',
    content: [{ type: 'text', text: next.say }, ...uses],
    model,
    stopReason: 'toolUse',
  } as unknown as CreateMessageResult;
}
