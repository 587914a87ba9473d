/**
 * review_changes' built-in model: no language model reviews anything here. It states what the diff holds — the
 * diffstat of the piece it was given — and leaves the findings to the deterministic checks (checks.ts), which run
 * on every route.
 */
import type { BuiltinAnswer, BuiltinModel } from '../../entries/tool.js';

export const BUILTIN_REVIEW_LABEL =
  'No language model reviewed this change: the diffstat and the deterministic checks.';

const json = (value: unknown): BuiltinAnswer => ({
  content: { type: 'text', text: JSON.stringify(value) },
  model: 'builtin-checks',
});

const review: BuiltinModel = (_request, { prompt }) => {
  const stat = /^DIFFSTAT: (.*)$/m.exec(prompt)?.[1] ?? '';
  const part = /^CHANGE: .*\((part \d+ of \d+)\)$/m.exec(prompt)?.[1];
  const files = (prompt.match(/^=== DIFF /gm) ?? []).length;
  const summary =
    part === undefined ? `${BUILTIN_REVIEW_LABEL} ${stat}` : `${part}: ${files} file${files === 1 ? '' : 's'}`;
  return json({ summary, verdict: 'comment', findings: [] });
};

const join: BuiltinModel = (_request, { prompt }) => {
  const stat = /^DIFFSTAT: (.*)$/m.exec(prompt)?.[1] ?? '';
  return json({ summary: `${BUILTIN_REVIEW_LABEL} ${stat}`, verdict: 'comment' });
};

export const REVIEW_CHANGES_BUILTIN = { review, join };
