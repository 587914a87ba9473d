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
