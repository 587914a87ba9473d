/**
 * The one place of `summarize_repo` where secrets are taken out, whatever model source or front runs the flow:
 * - what the reader returns, file by file, before the summary prompt is built from it (so each finding names
 *   its file);
 * - every prepared request as a whole — pick prompt (outline, candidate lines) and summary prompt (file blocks
 *   and anything else a prompt is built from) — so nothing added to a prompt later can bypass it;
 * - the final result: the summary text (and the facts the built-in model wrote into it), and the entries of the
 *   model's pick that are echoed back in `dropped`.
 * Each secret becomes `[redacted: <kind>]`. What was withheld is reported, never silent: the `redacted` list
 * (path, kind, count), one note "N secrets in M files were redacted.", and a note naming the secret-bearing
 * files a model asked for.
 */
import type { CallToolResult, CreateMessageRequestParams } from '@modelcontextprotocol/server';

import { formatTruncationMarker, type ReadFileResult } from '../../repo/index.js';
import { redactRequest, redactTexts, type CutText, type RedactedText } from '../../repo/secrets/index.js';
import type { ModelStep } from '../flow.js';

/** What was redacted in one file (or one prompt part: `(pick_files prompt)`). */
export interface RedactionEntry {
  path: string;
  kind: string;
  count: number;
}

/** The sealed state carries at most this many entries; beyond them only the totals grow. */
const MAX_ENTRIES = 16;
const MAX_PATH_LENGTH = 100;
/** How a `dropped` entry says that it names a secret-bearing file. */
export const SECRET_FILE_SUFFIX = ' (secret file: never read)';

export interface RedactionState {
  redacted?: RedactionEntry[];
  /** Secrets and files beyond {@link MAX_ENTRIES}, counted only. */
  redactedMore?: { secrets: number; files: number };
}

function entriesOf(path: string, redacted: RedactedText): RedactionEntry[] {
  const shown = path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}…` : path;
  return [...redacted.kinds].map(([kind, count]) => ({ path: shown, kind, count }));
}

/** `state` with `entries` added (same path and kind counted together). */
export function addRedactions<S extends RedactionState>(state: S, entries: readonly RedactionEntry[]): S {
  if (entries.length === 0) return state;
  const redacted = (state.redacted ?? []).map((entry) => ({ ...entry }));
  const more = { ...(state.redactedMore ?? { secrets: 0, files: 0 }) };
  const known = new Set(redacted.map((entry) => entry.path));
  for (const entry of entries) {
    const same = redacted.find((kept) => kept.path === entry.path && kept.kind === entry.kind);
    if (same !== undefined) same.count += entry.count;
    else if (redacted.length < MAX_ENTRIES) redacted.push({ ...entry });
    else {
      more.secrets += entry.count;
      if (!known.has(entry.path)) more.files++;
    }
    known.add(entry.path);
  }
  return { ...state, redacted, ...(more.secrets > 0 && { redactedMore: more }) };
}

/**
 * A read file as the redactor sees it: what is shown, with the text past the cut (`after`) behind it, so that a
 * secret across the cut is decided whole; `keep` is where the shown part ends. The truncation marker is set apart.
 */
export function cutTextOf(file: ReadFileResult): { cut: CutText; marker: string } {
  if (file.after === undefined) return { cut: { text: file.content }, marker: '' };
  const marker = formatTruncationMarker(file.bytesShown, file.size);
  const shown = file.content.endsWith(marker) ? file.content.slice(0, -marker.length) : file.content;
  return { cut: { text: shown + file.after, keep: shown.length }, marker: shown === file.content ? '' : marker };
}

/**
 * The read files with their secrets replaced, and what was replaced per file. Each file is decided with the text
 * past its cut, then cut: a secret across the cut is replaced whole (its marker ends the shown text).
 */
export async function redactFiles(
  files: readonly ReadFileResult[],
): Promise<{ files: ReadFileResult[]; entries: RedactionEntry[] }> {
  const cuts = files.map(cutTextOf);
  const results = await redactTexts(cuts.map(({ cut }) => cut));
  const entries = files.flatMap((file, index) => entriesOf(file.path, results[index]!));
  const redacted = files.map(({ after: _after, ...file }, index) =>
    results[index]!.count === 0 ? file : { ...file, content: results[index]!.text + cuts[index]!.marker },
  );
  return { files: redacted, entries };
}

/** A prepared request with every text it carries redacted (one scan for all of them: the kit's redactor). */
async function redactParams(
  params: CreateMessageRequestParams,
  where: string,
): Promise<{ params: CreateMessageRequestParams; entries: RedactionEntry[] }> {
  const redacted = await redactRequest(params);
  return { params: redacted.params, entries: redacted.results.flatMap((result) => entriesOf(where, result)) };
}

/** The one line of the text result: "3 secrets in 2 files were redacted." */
export function formatRedactionNote(state: RedactionState): string | undefined {
  const entries = state.redacted ?? [];
  const secrets = entries.reduce((sum, entry) => sum + entry.count, 0) + (state.redactedMore?.secrets ?? 0);
  if (secrets === 0) return undefined;
  const files = new Set(entries.map((entry) => entry.path)).size + (state.redactedMore?.files ?? 0);
  return `${secrets} secret${secrets === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} ${secrets === 1 ? 'was' : 'were'} redacted.`;
}

function secretFilesNote(dropped: readonly string[]): string | undefined {
  const names = dropped.filter((entry) => entry.endsWith(SECRET_FILE_SUFFIX));
  if (names.length === 0) return undefined;
  const list = names.map((entry) => entry.slice(0, -SECRET_FILE_SUFFIX.length)).join(', ');
  return `The model asked for ${names.length} secret-bearing file${names.length === 1 ? '' : 's'}, never read: ${list}.`;
}

/**
 * A JSON value with every string in it redacted (the repository facts of the structured result). Their secrets
 * were counted already where they entered the summary prompt, so nothing is added to the report here.
 */
async function redactStrings(value: unknown): Promise<unknown> {
  const strings: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node === 'string') strings.push(node);
    else if (Array.isArray(node)) node.forEach(collect);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(collect);
  };
  collect(value);
  const results = await redactTexts(strings);
  if (results.every((result) => result.count === 0)) return value;
  let next = 0;
  const rebuild = (node: unknown): unknown => {
    if (typeof node === 'string') return results[next++]!.text;
    if (Array.isArray(node)) return node.map(rebuild);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, rebuild(child)]));
    }
    return node;
  };
  return rebuild(value);
}

/** The final result with its texts redacted, the `redacted` report and the notes added. */
export async function finishResult(done: CallToolResult, state: RedactionState): Promise<CallToolResult> {
  const structured = (done.structuredContent ?? {}) as Record<string, unknown> & {
    summary?: string;
    dropped?: string[];
    notes?: string[];
  };
  const blocks = done.content.map((block) => (block.type === 'text' ? block.text : undefined));
  const blockTexts = blocks.filter((text): text is string => text !== undefined);
  const dropped = structured.dropped ?? [];
  const summary = structured.summary === undefined ? [] : [structured.summary];
  // One scan for the answer's text blocks, the dropped entries and the structured summary (a copy of the text).
  const results = await redactTexts([...blockTexts, ...dropped, ...summary]);
  const report = addRedactions(
    state,
    results.slice(0, blockTexts.length + dropped.length).flatMap((result) => entriesOf('(model answer)', result)),
  );
  let next = 0;
  const content = done.content.map((block) =>
    block.type === 'text' ? { ...block, text: results[next++]!.text } : block,
  );
  if (done.isError === true || done.structuredContent === undefined) return { ...done, content };
  const cleanDropped = results
    .slice(blockTexts.length, blockTexts.length + dropped.length)
    .map((result) => result.text);
  const notes = [formatRedactionNote(report), secretFilesNote(cleanDropped)].filter(
    (note): note is string => note !== undefined,
  );
  return {
    ...done,
    content: [...content, ...notes.map((note) => ({ type: 'text' as const, text: `Note: ${note}` }))],
    structuredContent: {
      ...structured,
      ...(structured.summary !== undefined && { summary: results[results.length - 1]!.text }),
      ...(structured.dropped !== undefined && { dropped: cleanDropped }),
      ...(structured['facts'] !== undefined && { facts: await redactStrings(structured['facts']) }),
      redacted: report.redacted ?? [],
      notes: [...(structured.notes ?? []), ...notes],
    },
  };
}

/**
 * `step` with redaction applied to every request it prepares and to the result it finishes with. Wrapping each
 * step of the flow here is what keeps every model source and every front behind the same redaction.
 */
export function withRedaction<Args, State extends { phase: string } & RedactionState>(
  step: ModelStep<Args, State>,
): ModelStep<Args, State> {
  return {
    ...step,
    async prepare(args, state, signal) {
      const prepared = await step.prepare(args, state, signal);
      if ('done' in prepared) return { done: await finishResult(prepared.done, state) };
      const where = `(${step.key} prompt)`;
      const { params, entries } = await redactParams(prepared.params, where);
      // A step may be prepared again from the same state (a server-owned model answering in place of the
      // host's): the prompt's own findings replace the earlier ones instead of being counted twice.
      const next = prepared.state ?? state;
      const earlier = next.redacted?.filter((entry) => entry.path !== where);
      const base = earlier === undefined ? next : { ...next, redacted: earlier };
      return { params, state: addRedactions(base, entries) };
    },
    async accept(args, state, answer, signal) {
      const outcome = await step.accept(args, state, answer, signal);
      return 'done' in outcome ? { done: await finishResult(outcome.done, state) } : outcome;
    },
    ...(step.recover !== undefined && {
      recover: {
        ...step.recover,
        async fallback(args, state, params, reason, signal) {
          const outcome = await step.recover!.fallback(args, state, params, reason, signal);
          return 'done' in outcome ? { done: await finishResult(outcome.done, state) } : outcome;
        },
      },
    }),
  };
}
