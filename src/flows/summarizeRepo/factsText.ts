/**
 * The repository facts as prompt text: a block of `Label: value` lines that every model path receives (the
 * pick prompt gets the lines that help choosing, the summary prompt all of them), so a model writes about the
 * whole repository and not only the files it was shown. The format is a documented contract
 * (docs/summarize-repo.md): the built-in model reads it back line by line. Values that come from manifests
 * are untrusted: flattened to one line and clipped; the whole block stays within a byte budget.
 */
import type { RepoFacts } from '../../repo/index.js';

export const FACTS_HEADER = 'Repository facts';
/** Labels in the order they are written; the built-in model reads them back by these names. */
export const FACT_LABELS = [
  'Name',
  'Description',
  'Main language',
  'Languages',
  'Counted apart',
  'Layout',
  'Manifests',
  'Entry points',
  'Commands',
] as const;
export type FactLabel = (typeof FACT_LABELS)[number];

/** Default byte budget of the whole block. */
export const FACTS_BYTES = 3 * 1024;
const MAX_LINE_CHARS = 600;
const PICK_LABELS: readonly FactLabel[] = ['Name', 'Main language', 'Manifests', 'Entry points', 'Layout'];

function oneLine(text: string, max = MAX_LINE_CHARS): string {
  const flat = text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function percent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  const value = (100 * part) / whole;
  return value >= 1 ? `${Math.round(value)}%` : '<1%';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function languagesLine(facts: RepoFacts): string | undefined {
  const { mix } = facts;
  if (mix.languages.length === 0) return undefined;
  const total = mix.languages.reduce((sum, share) => sum + share.bytes, 0);
  const shares = mix.languages.map(
    (share) => `${share.language} ${percent(share.bytes, total)} (${plural(share.files, 'file')})`,
  );
  return `${shares.join(', ')} — code by bytes, ${mix.bytes === 'measured' ? 'measured' : `estimated from ${mix.sampled} sampled sizes`}`;
}

function apartLine(facts: RepoFacts): string {
  const { mix } = facts;
  const docs = mix.documentation.languages.length > 0 ? ` (${mix.documentation.languages.join(', ')})` : '';
  return (
    `documentation ${plural(mix.documentation.files, 'file')}${docs}; vendored ${mix.vendored}; generated ${mix.generated}; ` +
    `data, configuration and other ${mix.other}`
  );
}

function layoutLine(facts: RepoFacts): string {
  const { layout } = facts;
  const dirs = layout.directories.map(
    (entry) =>
      `${entry.dir} ${plural(entry.files, 'file')} (${entry.role}${entry.language !== undefined ? `, ${entry.language}` : ''})`,
  );
  if (layout.rest.dirs > 0) dirs.push(`${layout.rest.dirs} more directories with ${plural(layout.rest.files, 'file')}`);
  dirs.push(`${plural(layout.rootFiles, 'file')} at the top level`);
  return dirs.join('; ');
}

/** The facts as `label -> value` (only the labels that have something to say). */
export function factValues(facts: RepoFacts): Map<FactLabel, string> {
  const values = new Map<FactLabel, string>();
  const { project, mix } = facts;
  if (project.name !== undefined) values.set('Name', `${project.name.value} (${project.name.from})`);
  if (project.description !== undefined) {
    values.set('Description', `${project.description.value} (${project.description.from})`);
  }
  if (mix.main !== undefined) {
    values.set(
      'Main language',
      mix.main.of === 'code' ? mix.main.language : `${mix.main.language} (documentation only, no code)`,
    );
  }
  const languages = languagesLine(facts);
  if (languages !== undefined) values.set('Languages', languages);
  values.set('Counted apart', apartLine(facts));
  values.set('Layout', layoutLine(facts));
  if (facts.manifests.length > 0) {
    values.set(
      'Manifests',
      facts.manifests
        .map((manifest) => {
          const details = [manifest.kind, manifest.language];
          if (manifest.name !== undefined) details.push(`name ${JSON.stringify(manifest.name)}`);
          if (manifest.workspace === true) details.push('workspace');
          return `${manifest.path} (${details.join(', ')})`;
        })
        .join('; '),
    );
  }
  if (facts.entryPoints.length > 0) {
    values.set(
      'Entry points',
      facts.entryPoints
        .map(
          (entry) =>
            `${entry.path} (${entry.via}${entry.declared !== undefined ? `, declared as ${entry.declared}` : ''})`,
        )
        .join('; '),
    );
  }
  if (facts.commands.length > 0) values.set('Commands', facts.commands.map((command) => command.command).join('; '));
  return values;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The facts block, whole lines only, within `budgetBytes`; `labels` chooses the lines. */
export function formatFacts(
  facts: RepoFacts,
  options: { budgetBytes?: number; labels?: readonly FactLabel[] } = {},
): string[] {
  const budget = options.budgetBytes ?? FACTS_BYTES;
  const labels = options.labels ?? FACT_LABELS;
  const header = `${FACTS_HEADER} (computed from the whole listing of ${plural(facts.files, 'file')}, not only the files shown; path-based heuristics):`;
  const lines = [header];
  let used = byteLength(header) + 1;
  const values = factValues(facts);
  for (const label of FACT_LABELS) {
    const value = values.get(label);
    if (value === undefined || !labels.includes(label)) continue;
    const line = `- ${label}: ${oneLine(value)}`;
    if (used + byteLength(line) + 1 > budget) continue;
    lines.push(line);
    used += byteLength(line) + 1;
  }
  return lines.length > 1 && used <= budget ? lines : [];
}

/** The lines of the pick prompt: what helps choosing files. */
export function formatPickFacts(facts: RepoFacts, budgetBytes: number): string[] {
  return formatFacts(facts, { budgetBytes, labels: PICK_LABELS });
}

/** The facts block as a model reads it back: the values by label, and the lists split into items. */
export interface ParsedFacts {
  values: Map<FactLabel, string>;
  name?: { value: string; from: string };
  description?: { value: string; from: string };
  mainLanguage?: { language: string; documentationOnly: boolean };
  manifests: { path: string; details: string }[];
  entryPoints: { path: string; via: string }[];
}

/** `value (source)` -> both parts; a value without a trailing parenthesis has no source. */
function withSource(text: string): { value: string; from: string } {
  const match = /^(.*\S)\s+\(([^()]*(?:\([^()]*\)[^()]*)*)\)$/.exec(text);
  return match?.[1] !== undefined && match[2] !== undefined
    ? { value: match[1], from: match[2] }
    : { value: text, from: '' };
}

function items(text: string | undefined): { path: string; details: string }[] {
  if (text === undefined) return [];
  return text
    .split('; ')
    .map((item) => withSource(item.trim()))
    .filter((item) => item.value !== '')
    .map((item) => ({ path: item.value, details: item.from }));
}

/** Reads a facts block back from prompt text (the lines after the `Repository facts` header). */
export function parseFacts(text: string): ParsedFacts | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => line.startsWith(`${FACTS_HEADER} (`));
  if (start < 0) return undefined;
  const values = new Map<FactLabel, string>();
  for (const line of lines.slice(start + 1)) {
    const match = /^- ([A-Za-z ]+): (.*)$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) break;
    const label = FACT_LABELS.find((known) => known === match[1]);
    if (label !== undefined) values.set(label, match[2]);
  }
  const parsed: ParsedFacts = {
    values,
    manifests: items(values.get('Manifests')),
    entryPoints: items(values.get('Entry points')).map(({ path, details }) => ({ path, via: details })),
  };
  const name = values.get('Name');
  if (name !== undefined) parsed.name = withSource(name);
  const description = values.get('Description');
  if (description !== undefined) parsed.description = withSource(description);
  const main = values.get('Main language');
  if (main !== undefined) {
    const documentationOnly = main.endsWith('(documentation only, no code)');
    parsed.mainLanguage = {
      language: documentationOnly ? main.replace(/\s*\(documentation only, no code\)$/, '') : main,
      documentationOnly,
    };
  }
  return parsed;
}
