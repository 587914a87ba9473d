/**
 * `review_changes({ base?, head?, paths?, focus? })`: a review of the working tree against `HEAD` (staged and
 * unstaged), or of `base..head`. The diff comes from `ctx.repo.diff` (git through the server's git pool, confined
 * to the root, ignore rules held, secret-bearing files withheld, secrets redacted and those added reported). The
 * model reviews it in bounded pieces (pieces.ts) — one question for a small diff, one per piece and a join for a
 * large one — and deterministic checks (checks.ts) add their findings on every route. Built only on the public kit.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { defineModelTool, type DiffFile, type ModelToolContext, type SampleRequest } from '../../entries/tool.js';
import { REVIEW_CHANGES_BUILTIN } from './builtin.js';
import { deterministicFindings, type Finding, type Severity } from './checks.js';
import { diffstat, fileLines } from './diffstat.js';
import { makePieces } from './pieces.js';
import {
  JOIN_ANSWER,
  JOIN_SYSTEM,
  joinPrompt,
  REVIEW_ANSWER,
  REVIEW_SYSTEM,
  reviewPrompt,
  type Verdict,
} from './prompts.js';

const input = z.strictObject({
  base: z.string().max(200).optional().describe('A commit to review from (default HEAD, against the working tree)'),
  head: z.string().max(200).optional().describe('A commit to review up to (needs base; default the working tree)'),
  paths: z.array(z.string().max(1000)).max(100).optional().describe('Only these paths, relative to the root'),
  focus: z.string().max(500).optional().describe('What to look at most closely, e.g. "error handling"'),
});

export const NOTHING_TO_REVIEW = 'Nothing to review';

const SEVERITY_ORDER: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

function requestBytes(request: SampleRequest): number {
  const texts = request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [m.content]));
  const body = texts.reduce((sum, block) => sum + (block.type === 'text' ? Buffer.byteLength(block.text) : 0), 0);
  return body + Buffer.byteLength(request.systemPrompt ?? '');
}

interface Usage {
  modelCalls: number;
  inputBytes: number;
  /** The largest single model input of the call. */
  maxInputBytes: number;
  routes: Array<{ step: string; route: string }>;
}

function asker(ctx: ModelToolContext, usage: Usage) {
  return async (step: string, system: string, prompt: string, schema: z.ZodType) => {
    const request: SampleRequest = {
      systemPrompt: system,
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens: 2000,
      outputSchema: schema,
    };
    const bytes = requestBytes(request);
    usage.modelCalls++;
    usage.inputBytes += bytes;
    usage.maxInputBytes = Math.max(usage.maxInputBytes, bytes);
    const answer = await ctx.sample(step, request);
    usage.routes.push({ step, route: answer.route });
    return answer.data;
  };
}

/** The verdict: the model's, never milder than the checks' findings call for. */
function finalVerdict(model: Verdict | undefined, findings: readonly Finding[]): Verdict {
  const floor: Verdict = findings.some((f) => f.severity === 'high')
    ? 'request_changes'
    : findings.length > 0
      ? 'comment'
      : 'approve';
  const rank: Record<Verdict, number> = { approve: 0, comment: 1, request_changes: 2 };
  return model !== undefined && rank[model] > rank[floor] ? model : floor;
}

export const reviewChanges = defineModelTool({
  name: 'review_changes',
  title: 'Review changes',
  description:
    'Reviews a diff of the served repository — the working tree against HEAD (staged and unstaged), or base..head ' +
    '— and answers with findings (severity, path:line, message) and a verdict. Secrets are never shown; one added ' +
    'is reported.',
  input,
  annotations: { readOnlyHint: true, openWorldHint: false },
  steps: {
    review: {
      description: 'Review a diff, or one piece of a large one',
      modelPreferences: { intelligencePriority: 0.9 },
    },
    join: { description: 'Join the reviews of the pieces', modelPreferences: { intelligencePriority: 0.6 } },
  },
  builtin: REVIEW_CHANGES_BUILTIN,
  async run({ base, head, paths, focus }, ctx) {
    const repo = ctx.repo;
    if (repo === undefined)
      return { content: [{ type: 'text', text: 'review_changes: no repository is served.' }], isError: true };
    const diff = await repo.diff({
      ...(base !== undefined && { base }),
      ...(head !== undefined && { head }),
      ...(paths !== undefined && { paths }),
      signal: ctx.signal,
    });
    if (!diff.ok) {
      if (diff.error === 'bad_ref' || diff.error === 'bad_path') {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `review_changes: ${diff.message}`);
      }
      return { content: [{ type: 'text', text: `review_changes: ${diff.message}.` }], isError: true };
    }
    const range = `${diff.base}..${diff.head}`;
    if (diff.files.length === 0) {
      const ignored = diff.ignored.length > 0 ? ` (${diff.ignored.length} ignored file(s) left out)` : '';
      return {
        content: [{ type: 'text', text: `${NOTHING_TO_REVIEW}: no changes in ${range}${ignored}.` }],
        structuredContent: { base: diff.base, head: diff.head, verdict: 'nothing_to_review', findings: [], files: [] },
      };
    }
    const stat = diffstat(diff.files);
    const usage: Usage = { modelCalls: 0, inputBytes: 0, maxInputBytes: 0, routes: [] };
    const ask = asker(ctx, usage);
    const { pieces, notReviewed } = makePieces(diff.files);
    const reviewed = await reviewPieces(ask, pieces, range, stat, focus);
    const known = new Set(diff.files.map((file) => file.path));
    const fromModel = reviewed.findings.filter((finding) => known.has(finding.path));
    const findings = [...deterministicFindings(diff.files), ...fromModel].sort(
      (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.path.localeCompare(b.path),
    );
    const verdict = finalVerdict(reviewed.verdict, findings);
    const structured = {
      base: diff.base,
      head: diff.head,
      verdict,
      summary: reviewed.summary,
      findings,
      diffstat: stat,
      files: diff.files.map(({ path, status, added, removed, binary, withheld }) => ({
        path,
        status,
        added,
        removed,
        binary,
        withheld,
      })),
      ignored: diff.ignored.length,
      pieces: pieces.length,
      notReviewed,
      removedFindings: reviewed.findings.length - fromModel.length,
      routes: usage.routes,
      usage: { modelCalls: usage.modelCalls, inputBytes: usage.inputBytes, maxInputBytes: usage.maxInputBytes },
    };
    return { content: [{ type: 'text', text: report(structured, diff.files) }], structuredContent: structured };
  },
});

type Ask = ReturnType<typeof asker>;

async function reviewPieces(
  ask: Ask,
  pieces: ReadonlyArray<{ text: string }>,
  range: string,
  stat: string,
  focus: string | undefined,
): Promise<{ summary: string; verdict: Verdict | undefined; findings: Finding[] }> {
  const asModel = (said: z.output<typeof REVIEW_ANSWER>): Finding[] =>
    said.findings.map(({ severity, path, line, message }) => ({
      severity,
      path,
      ...(line !== undefined && { line }),
      message,
      source: 'model' as const,
    }));
  if (pieces.length === 1) {
    const said = (await ask(
      'review',
      REVIEW_SYSTEM,
      reviewPrompt(range, stat, focus, pieces[0]?.text ?? ''),
      REVIEW_ANSWER,
    )) as z.output<typeof REVIEW_ANSWER>;
    return { summary: said.summary, verdict: said.verdict, findings: asModel(said) };
  }
  const summaries: string[] = [];
  const findings: Finding[] = [];
  for (const [index, piece] of pieces.entries()) {
    const part = `part ${index + 1} of ${pieces.length}`;
    const said = (await ask(
      'review',
      REVIEW_SYSTEM,
      reviewPrompt(range, stat, focus, piece.text, part),
      REVIEW_ANSWER,
    )) as z.output<typeof REVIEW_ANSWER>;
    summaries.push(said.summary.slice(0, 2000));
    findings.push(...asModel(said));
  }
  const listed = findings.map(
    (f) => `${f.severity} ${f.path}${f.line === undefined ? '' : `:${f.line}`} ${f.message.slice(0, 300)}`,
  );
  const joined = (await ask('join', JOIN_SYSTEM, joinPrompt(range, stat, summaries, listed), JOIN_ANSWER)) as z.output<
    typeof JOIN_ANSWER
  >;
  return { summary: joined.summary, verdict: joined.verdict, findings };
}

function report(
  out: { verdict: Verdict; summary: string; findings: Finding[]; notReviewed: string[]; base: string; head: string },
  files: readonly DiffFile[],
): string {
  const findings =
    out.findings.length === 0
      ? ['No findings.']
      : out.findings.map((f) => `- ${f.severity} ${f.path}${f.line === undefined ? '' : `:${f.line}`}: ${f.message}`);
  return [
    `Verdict: ${out.verdict} (${out.base}..${out.head})`,
    out.summary,
    'Findings:',
    ...findings,
    'Files:',
    ...fileLines(files),
    ...(out.notReviewed.length > 0 ? [`Not reviewed (diff too large): ${out.notReviewed.length} file(s)`] : []),
  ].join('\n');
}
