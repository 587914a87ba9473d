/**
 * Scoring of `npm run eval`: what the summary says (name, purpose, main language, the file to start at) and which
 * files were picked, against the expectations of one repository. Pure functions, tested in test/eval/score.test.ts.
 */

export interface Expectation {
  repo: string;
  commit: string;
  shape: string;
  /** Accepted names; compared without case, spaces and punctuation. */
  names: string[];
  /** Each group must be found in the purpose line (any one of its alternatives, without case). */
  purpose: string[][];
  mainLanguage: string;
  /** Slots: each satisfied by any one of its paths. */
  picks: string[][];
  /** The paths the summary may name as the file to start at (`start at \`X\``); empty: none expected (no code). */
  entryPoint: string[];
  note?: string;
}

export interface SummaryFields {
  name?: string;
  purpose?: string;
  mainLanguage?: string;
  /** The opening line's `start at \`X\``: the first entry point. */
  entryPoint?: string;
}

export interface Score {
  name: boolean;
  purpose: boolean;
  mainLanguage: boolean;
  picks: boolean;
  entryPoint: boolean;
  /** Why a measure missed, one line each. */
  misses: string[];
}

export const MEASURES = ['name', 'purpose', 'mainLanguage', 'entryPoint', 'picks'] as const;
export type Measure = (typeof MEASURES)[number];

function field(text: string, label: string): string | undefined {
  const match = new RegExp(`^\\s*[-*]?\\s*${label}:\\s*(.+)$`, 'im').exec(text);
  return match?.[1]?.trim();
}

function unbold(text: string): string {
  return /\*\*(.+?)\*\*/.exec(text)?.[1] ?? text;
}

/** The fields of a summary written by the built-in model (`- Name: **x** (from …)`, `- Purpose: …`, `- Main language: **x**`). */
export function summaryFields(summary: string): SummaryFields {
  const fields: SummaryFields = {};
  const name = field(summary, 'Name');
  if (name !== undefined) fields.name = unbold(name).trim();
  const purpose = field(summary, 'Purpose');
  if (purpose !== undefined) fields.purpose = purpose;
  const language = field(summary, 'Main language');
  if (language !== undefined)
    fields.mainLanguage = unbold(language)
      .replace(/\s*\(.*$/, '')
      .trim();
  const start = /\bstart at `([^`]+)`/.exec(summary)?.[1];
  if (start !== undefined) fields.entryPoint = start;
  return fields;
}

export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}+#]/gu, '');
}

export function scoreRepository(expectation: Expectation, summary: string, picked: readonly string[]): Score {
  const fields = summaryFields(summary);
  const misses: string[] = [];
  const name = fields.name !== undefined && expectation.names.map(normalizeName).includes(normalizeName(fields.name));
  if (!name)
    misses.push(
      `name: got ${JSON.stringify(fields.name ?? null)}, expected one of ${JSON.stringify(expectation.names)}`,
    );
  const purposeText = (fields.purpose ?? '').toLowerCase();
  const missing = expectation.purpose.filter(
    (group) => !group.some((word) => purposeText.includes(word.toLowerCase())),
  );
  const purpose = fields.purpose !== undefined && missing.length === 0;
  if (!purpose) {
    misses.push(
      `purpose: ${JSON.stringify(fields.purpose ?? null)} lacks ${missing.map((group) => group.join('|')).join(', ') || 'a purpose line'}`,
    );
  }
  const mainLanguage = fields.mainLanguage?.toLowerCase() === expectation.mainLanguage.toLowerCase();
  if (!mainLanguage) {
    misses.push(
      `main language: got ${JSON.stringify(fields.mainLanguage ?? null)}, expected ${expectation.mainLanguage}`,
    );
  }
  const entryPoint =
    expectation.entryPoint.length === 0
      ? fields.entryPoint === undefined
      : fields.entryPoint !== undefined && expectation.entryPoint.includes(fields.entryPoint);
  if (!entryPoint) {
    misses.push(
      `entry point: got ${JSON.stringify(fields.entryPoint ?? null)}, expected ${expectation.entryPoint.length === 0 ? 'none' : `one of ${JSON.stringify(expectation.entryPoint)}`}`,
    );
  }
  const unmet = expectation.picks.filter((slot) => !slot.some((path) => picked.includes(path)));
  const picks = unmet.length === 0;
  if (!picks) misses.push(`picks: ${JSON.stringify(picked)} miss ${unmet.map((slot) => slot.join('|')).join(', ')}`);
  return { name, purpose, mainLanguage, entryPoint, picks, misses };
}

/** The checkout of `repo` (`owner/name`) among directory names: `owner--name`, `owner+name`, `owner_name` or `name`. */
export function findCheckout(repo: string, dirs: readonly string[]): string | undefined {
  const [owner = '', name = ''] = repo.split('/');
  const wanted = [`${owner}--${name}`, `${owner}+${name}`, `${owner}_${name}`, name].map((dir) => dir.toLowerCase());
  for (const candidate of wanted) {
    const found = dirs.find((dir) => dir.toLowerCase() === candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}
