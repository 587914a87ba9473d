import { collectFacts } from './fileBlocks.js';
import type { SummaryFacts } from './fileBlocks.js';

/**
 * Writing half of the built-in summary: an extractive Markdown summary of the facts, with a plain
 * statement that no language model wrote it. Only the opening line depends on the audience.
 * Output stays under MAX_SUMMARY_CHARS and roughly under `maxTokens` (4 characters per token),
 * cut at a line boundary with a note: its size does not grow with the repository.
 */

export const MAX_SUMMARY_CHARS = 4000;
const CHARS_PER_TOKEN = 4;
const PURPOSE_CHARS = 300;
const MAX_LIST_ITEMS = 12;
const CUT_NOTE = '_(Cut to fit the length limit. Built-in heuristic, not a language model.)_';
const EXECUTIVE_AUDIENCES = /\b(exec|executive|manager|management|business|non-technical|stakeholder|leadership)/i;

export function isSummaryPrompt(text: string): boolean {
  return /\bsummari[sz]e the repository\b/i.test(text);
}

/** Collapses whitespace and trims to about `max` characters at a word boundary. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

function code(text: string): string {
  return `\`${clip(text, 120).replace(/`/g, "'")}\``;
}

function sentence(text: string): string {
  return /[.!?…:]$/.test(text) ? text.replace(/:$/, '.') : `${text}.`;
}

function capped(items: string[], max = MAX_LIST_ITEMS): string[] {
  if (items.length <= max) return items;
  return [...items.slice(0, max), `- … and ${items.length - max} more`];
}

function openingLine(facts: SummaryFacts, name: string): string {
  const audience = clip(facts.audience ?? 'developer', 40);
  if (EXECUTIVE_AUDIENCES.test(audience)) {
    const purpose = facts.purpose !== undefined ? clip(facts.purpose.value, PURPOSE_CHARS) : undefined;
    return purpose !== undefined
      ? `**In one sentence:** ${name} — ${sentence(purpose)}`
      : `**In one sentence:** ${name} is a software project whose purpose is not stated in its manifest or README.`;
  }
  const parts = [
    facts.mainLanguage !== undefined
      ? facts.mainLanguage.detail.startsWith('documentation')
        ? `documentation in ${facts.mainLanguage.language}, no code`
        : `mostly ${facts.mainLanguage.language}`
      : 'no source language recognised',
  ];
  const entry = facts.entryPoints[0];
  if (entry !== undefined) parts.push(`start at ${code(entry.target)}`);
  return `Overview of **${name}** for a ${audience} audience: ${parts.join('; ')}.`;
}

function projectSection(facts: SummaryFacts, name: string): string[] {
  const lines = ['## Project', `- Name: **${name}** (from ${facts.name?.from ?? 'nothing found'})`];
  lines.push(
    facts.purpose !== undefined
      ? `- Purpose: ${clip(facts.purpose.value, PURPOSE_CHARS)} (from ${facts.purpose.from})`
      : '- Purpose: unknown (no manifest description, no sentence in the README read that describes the project).',
  );
  lines.push(
    facts.mainLanguage !== undefined
      ? `- Main language: **${facts.mainLanguage.language}** (${facts.mainLanguage.detail})`
      : '- Main language: none recognised',
  );
  return lines;
}

function languagesSection(facts: SummaryFacts): string[] {
  const items = facts.languages.items.map((item) => `- ${item}`);
  const lines = ['## Languages', ...(items.length > 0 ? capped(items) : ['- No code recognised.'])];
  if (facts.languages.note !== '') lines.push(`- _Counted: ${facts.languages.note}._`);
  if (facts.apart !== undefined) lines.push(`- Counted apart: ${facts.apart}`);
  return lines;
}

function layoutSection(facts: SummaryFacts): string[] {
  const items = facts.layout.map((item) => {
    const [dir, ...rest] = item.split(' ');
    return dir !== undefined && dir.endsWith('/') ? `- ${code(dir)} ${rest.join(' ')}` : `- ${item}`;
  });
  // The facts list at most 12 directories, then the rest and the top-level files.
  return ['## Layout', ...(items.length > 0 ? capped(items, 14) : ['- Nothing listed.'])];
}

function entryPointsSection(facts: SummaryFacts): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const { target, via } of facts.entryPoints) {
    if (seen.has(target)) continue;
    seen.add(target);
    items.push(`- ${code(target)} — ${via}`);
  }
  const lines = ['## Entry points', ...(items.length > 0 ? capped(items) : ['- None found.'])];
  if (facts.commands.length > 0) lines.push(`- Commands: ${facts.commands.slice(0, 6).map(code).join(', ')}`);
  return lines;
}

function readSection(facts: SummaryFacts): string[] {
  const items = facts.files.map((file) => {
    const size = file.bytes !== undefined ? `${file.bytes} bytes` : 'size unknown';
    return `- ${code(file.path)} (${size}${file.truncated ? ', truncated: only the beginning was read' : ''})`;
  });
  const lines = ['## What it read', ...(items.length > 0 ? capped(items) : ['- No file contents were given.'])];
  const truncated = facts.files.filter((file) => file.truncated).length;
  if (truncated > 0) lines.push('', `${truncated} of ${facts.files.length} files were truncated.`);
  return lines;
}

/** Whole lines that fit in `budget` characters, with a note when something was cut. */
export function fitToBudget(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const room = budget - CUT_NOTE.length - 2;
  if (room <= 0) return text.slice(0, Math.max(0, budget));
  const lines = text.split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    const next = length + (kept.length > 0 ? 1 : 0) + line.length;
    if (next > room) break;
    kept.push(line);
    length = next;
  }
  while (kept.length > 0 && kept[kept.length - 1]?.trim() === '') kept.pop();
  return kept.length > 0 ? `${kept.join('\n')}\n\n${CUT_NOTE}` : text.slice(0, budget);
}

function disclaimer(facts: SummaryFacts): string {
  return facts.wholeRepository
    ? '_Written by the built-in heuristic of mcp-model-input, not by a language model: name, purpose and entry ' +
        'points are taken from the manifests and the README; languages and layout are counted from the paths of ' +
        'the whole repository, by file name rules that can be wrong._'
    : '_Written by the built-in heuristic of mcp-model-input, not by a language model: extracted and counted ' +
        'from the files listed at the end only._';
}

export function writeSummary(facts: SummaryFacts, maxTokens?: number): string {
  const name = clip(facts.name?.value ?? 'this repository', 80);
  const sections = [
    [openingLine(facts, name), '', disclaimer(facts)],
    projectSection(facts, name),
    languagesSection(facts),
    layoutSection(facts),
    entryPointsSection(facts),
    readSection(facts),
  ];
  const text = sections.map((lines) => lines.join('\n')).join('\n\n');
  const tokenBudget =
    maxTokens !== undefined && Number.isFinite(maxTokens) && maxTokens > 0 ? maxTokens * CHARS_PER_TOKEN : Infinity;
  return fitToBudget(text, Math.min(MAX_SUMMARY_CHARS, tokenBudget));
}

export function answerSummary(text: string, maxTokens?: number): string {
  return writeSummary(collectFacts(text), maxTokens);
}
