/** review_changes' model questions: system prompts, prompt texts, and the answers' JSON schemas. */
import { z } from 'zod';

export const VERDICTS = ['approve', 'comment', 'request_changes'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const MODEL_FINDING = z.object({
  severity: z.enum(['high', 'medium', 'low']).catch('low'),
  path: z.string(),
  line: z.number().int().positive().optional().catch(undefined),
  message: z.string().min(1).max(2000),
});

export const REVIEW_ANSWER = z.object({
  summary: z.string().max(8000),
  verdict: z.enum(VERDICTS).optional().catch(undefined),
  findings: z.array(MODEL_FINDING).max(50).default([]),
});

export const JOIN_ANSWER = z.object({ summary: z.string().max(8000), verdict: z.enum(VERDICTS) });

const JSON_SHAPE =
  '{"summary": "what the change does", "verdict": "approve" | "comment" | "request_changes", ' +
  '"findings": [{"severity": "high" | "medium" | "low", "path": "src/a.ts", "line": 12, "message": "…"}]}';

export const REVIEW_SYSTEM =
  'You review a code change for correctness, security and maintainability. Report only real problems, each at ' +
  `the line of the new file it is about. Answer with JSON only: ${JSON_SHAPE}.`;

export const JOIN_SYSTEM =
  'You join the reviews of the parts of one code change into one. Answer with JSON only: ' +
  '{"summary": "what the whole change does", "verdict": "approve" | "comment" | "request_changes"}.';

export function reviewPrompt(range: string, stat: string, focus: string | undefined, diff: string, part?: string) {
  return [
    `CHANGE: ${range}${part === undefined ? '' : ` (${part})`}`,
    `DIFFSTAT: ${stat}`,
    ...(focus === undefined ? [] : [`FOCUS: ${focus}`]),
    diff,
  ].join('\n\n');
}

export function joinPrompt(range: string, stat: string, parts: readonly string[], findings: readonly string[]) {
  return [
    `CHANGE: ${range}`,
    `DIFFSTAT: ${stat}`,
    'PART SUMMARIES:',
    ...parts.map((summary, index) => `PART ${index + 1}: ${summary}`),
    `FINDINGS (${findings.length}):`,
    ...findings.slice(0, 100),
  ].join('\n');
}
