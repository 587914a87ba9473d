/**
 * Renders the generated docs from the JSON in `bench/results/`: `docs/performance.md` whole, from a bench run, and
 * the stress section of `docs/reliability.md`, from a stress run. Pure but for the file helpers at the end, so that a
 * test can render in-process and compare with the committed pages (test/bench/generatedPages.test.ts). The output is
 * passed through prettier with the project's options, so `npm run lint` leaves the pages as rendered.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { format, resolveConfig } from 'prettier';

import { LATEST, STRESS_LATEST, type BenchResults, type Figure, type Machine } from './figures.js';

export const PERFORMANCE_PAGE = 'docs/performance.md';
export const RELIABILITY_PAGE = 'docs/reliability.md';

/** Headings of the bench parts, in page order. */
const PART_TITLES: Record<string, string> = {
  startup: 'Start-up',
  rounds: 'Server time per MRTR round',
  codec: 'Request state',
  scale: 'Rounds at scale',
  repo: 'Repository scale',
  secrets: 'Secret scanning and redaction',
  redact: 'Redactor on its worst inputs',
  tasks: 'Tasks',
  kit: 'summarize_repo server time against the flow engine',
  explore: 'Explore mode',
  fleet: 'Fleet',
};

/** The line a generated page names its JSON in; {@link namedSource} reads it back. */
const sourceLine = (source: string, command: string): string =>
  `<!-- Generated from ${source} by \`${command}\`; do not edit by hand. -->`;

/** The JSON file a generated page (or section) says it was rendered from. */
export function namedSource(page: string): string {
  const match = /<!-- Generated from (\S+\.json) by /.exec(page);
  if (match?.[1] === undefined) throw new Error('the page names no JSON it was rendered from');
  return match[1];
}

const machineLine = (date: string, machine: Machine): string =>
  `${date.slice(0, 16)}Z, Node ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, ${machine.os}`;

const number = (value: number): string =>
  !Number.isFinite(value)
    ? '—'
    : Math.abs(value) >= 100
      ? value.toFixed(0)
      : value.toPrecision(3).replace(/\.?0+$/, '');

function figureLine(figure: Figure): string {
  const ratio = Number.isFinite(figure.ratio) ? `${figure.ratio.toFixed(2)}x` : '—';
  const amounts = `${number(figure.value)} against ${number(figure.baseline)} ${figure.unit}`;
  return `- **${figure.name}**: **${ratio}** against ${figure.against} (${amounts}). ${figure.meaning}`;
}

/** `docs/performance.md` from one bench run's results; `source` is the JSON's path as the page names it. */
export function renderPerformance(results: BenchResults, source: string): string {
  const lines = [
    '# Performance',
    '',
    sourceLine(source, 'npm run bench -- --render'),
    '',
    `Measured by \`${results.command}\` on ${machineLine(results.date, results.machine)}.`,
    'Each figure is a ratio to a baseline measured in the same run, interleaved against machine noise: read the ratio,',
    'not the machine-dependent medians. `npm run bench -- --render` re-renders this page from the JSON; earlier runs',
    'are in `bench/results/` and git history.',
  ];
  const parts = [...new Set(results.figures.map((figure) => figure.part))].sort(
    (a, b) => Object.keys(PART_TITLES).indexOf(a) - Object.keys(PART_TITLES).indexOf(b),
  );
  for (const part of parts) {
    const figures = results.figures.filter((figure) => figure.part === part);
    lines.push('', `## ${PART_TITLES[part] ?? part}`, '');
    for (const figure of figures) lines.push(figureLine(figure));
    lines.push('', '```sh', ...new Set(figures.map((figure) => figure.command)), '```');
  }
  const missing = results.parts.filter((part) => !parts.includes(part));
  if (missing.length > 0) lines.push('', `Parts run that recorded no figure: ${missing.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

/** One row of `npm run stress`'s table. */
export interface StressRow {
  scenario: string;
  server: string;
  throughput: string;
  p50: string;
  p99: string;
  probe: string;
  rss: string;
  errors: string;
  notes: string;
}

export interface StressResults {
  kind: 'stress';
  date: string;
  machine: Machine;
  scenarios: string[];
  command: string;
  rows: StressRow[];
}

export const STRESS_BEGIN = '<!-- stress results: begin -->';
export const STRESS_END = '<!-- stress results: end -->';

function stressLine(row: StressRow): string {
  const given = (text: string): boolean => text !== '' && text !== '—';
  const facts = [
    given(row.throughput) ? row.throughput : '',
    given(row.p50) ? `p50 ${row.p50}, p99 ${row.p99}` : '',
    given(row.probe) ? `probe ${row.probe}` : '',
    given(row.rss) ? `peak RSS ${row.rss}` : '',
    given(row.errors) ? `errors: ${row.errors}` : '',
    given(row.notes) ? row.notes : '',
  ].filter((fact) => fact !== '');
  return `- **${row.scenario}**, ${row.server}: ${facts.join('; ')}.`;
}

/** The stress section of `docs/reliability.md` (between its markers) from one stress run's results. */
export function renderStress(results: StressResults, source: string): string {
  const lines = [
    STRESS_BEGIN,
    sourceLine(source, 'npm run stress -- --render'),
    '',
    `Rendered from \`${source}\`: \`${results.command}\` on ${machineLine(results.date, results.machine)}.`,
    'Servers run as child processes on 127.0.0.1; "SDK McpServer" is the minimal SDK baseline',
    '(`bench/stressBaseline.ts`). Times in ms; probe: a `server/discover` every 20 ms meanwhile (p50 / p99); RSS in MB.',
    '',
    ...results.rows.map(stressLine),
    '',
    '```sh',
    results.command,
    '```',
    STRESS_END,
  ];
  return lines.join('\n');
}

/** Replaces the stress section of a reliability page (markers included) with `section`. */
export function spliceStress(page: string, section: string): string {
  const begin = page.indexOf(STRESS_BEGIN);
  const end = page.indexOf(STRESS_END);
  if (begin < 0 || end < begin) throw new Error(`${RELIABILITY_PAGE} has no stress section markers`);
  return page.slice(0, begin) + section + page.slice(end + STRESS_END.length);
}

/** Formats a Markdown page as `prettier --write` would in this project. */
export async function prettierMarkdown(text: string, file: string): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  return format(text, { ...options, filepath: file, parser: 'markdown' });
}

/** The committed reliability page re-rendered from the stress JSON it names (`root`: the project). */
export async function renderedReliability(root: string): Promise<{ current: string; rendered: string }> {
  const file = path.join(root, RELIABILITY_PAGE);
  const current = await readFile(file, 'utf8');
  const begin = current.indexOf(STRESS_BEGIN);
  const source = namedSource(current.slice(begin));
  const results = JSON.parse(await readFile(path.join(root, source), 'utf8')) as StressResults;
  return { current, rendered: await prettierMarkdown(spliceStress(current, renderStress(results, source)), file) };
}

/** The performance page rendered from the JSON `source` names (`root`: the project). */
export async function renderedPerformance(root: string, source = LATEST): Promise<string> {
  const results = JSON.parse(await readFile(path.join(root, source), 'utf8')) as BenchResults;
  return prettierMarkdown(renderPerformance(results, source), path.join(root, PERFORMANCE_PAGE));
}

export async function renderPerformanceFile(root = process.cwd()): Promise<void> {
  await writeFile(path.join(root, PERFORMANCE_PAGE), await renderedPerformance(root));
}

export async function renderReliabilityFile(root = process.cwd()): Promise<void> {
  const { rendered } = await renderedReliability(root);
  await writeFile(path.join(root, RELIABILITY_PAGE), rendered);
}

/** Writes a run's results as `latest` and as a recorded run beside it (small: one JSON object, two-space indent). */
export async function writeResults(
  latest: string,
  results: object,
  runFile: string,
  root = process.cwd(),
): Promise<void> {
  const text = await format(JSON.stringify(results), { parser: 'json', printWidth: 120 });
  await writeFile(path.join(root, latest), text);
  await writeFile(path.join(root, path.dirname(latest), runFile), text);
}

export { STRESS_LATEST };
