import { collectFacts } from './fileBlocks.js';
import type { SummaryFacts } from './fileBlocks.js';

/**
 * Writing half of the built-in summary: an extractive Markdown summary of the facts, with a plain
 * statement that no language model wrote it. Only the opening line depends on the audience.
 * Output stays under MAX_SUMMARY_CHARS and roughly under `maxTokens` (4 characters per token),
 * cut at a line boundary with a note.
 */

export const MAX_SUMMARY_CHARS = 4000;
const CHARS_PER_TOKEN = 4;
const PURPOSE_CHARS = 300;
const MAX_LIST_ITEMS = 25;
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

function firstSentence(text: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

function capped(items: string[]): string[] {
  if (items.length <= MAX_LIST_ITEMS) return items;
  return [...items.slice(0, MAX_LIST_ITEMS), `- … and ${items.length - MAX_LIST_ITEMS} more`];
}

function openingLine(facts: SummaryFacts, name: string): string {
  const audience = clip(facts.audience ?? 'developer', 40);
  if (EXECUTIVE_AUDIENCES.test(audience)) {
    const purpose = facts.purpose !== undefined ? clip(facts.purpose.value, PURPOSE_CHARS) : undefined;
    return purpose !== undefined
      ? `**In one sentence:** ${name} — ${firstSentence(purpose)}`
      : `**In one sentence:** ${name} is a software project whose purpose is not stated in the files read.`;
  }
  const language = facts.languages.find((entry) => !['Markdown', 'JSON', 'YAML', 'TOML'].includes(entry.language));
  const entry = facts.entryPoints.find((point) => point.via === 'named like an entry point') ?? facts.entryPoints[0];
  const parts = [language !== undefined ? `mostly ${language.language}` : 'no source language recognised'];
  if (entry !== undefined) parts.push(`start at ${code(entry.target)}`);
  return `Overview of **${name}** for a ${audience} audience: ${parts.join('; ')}.`;
}

function projectSection(facts: SummaryFacts, name: string): string[] {
  const lines = ['## Project', `- Name: **${name}** (from ${facts.name?.from ?? 'nothing found'})`];
  lines.push(
    facts.purpose !== undefined
      ? `- Purpose: ${clip(facts.purpose.value, PURPOSE_CHARS)} (from ${facts.purpose.from})`
      : '- Purpose: not stated in the files read (no manifest description or README paragraph).',
  );
  return lines;
}

function languagesSection(facts: SummaryFacts): string[] {
  const items = facts.languages.map(({ language, files }) => `- ${language}: ${files} file${files === 1 ? '' : 's'}`);
  return ['## Languages', ...(items.length > 0 ? capped(items) : ['- None recognised among the files read.'])];
}

function layoutSection(facts: SummaryFacts): string[] {
  const lines = ['## Layout'];
  if (facts.directories.length > 0) {
    const directories = facts.directories.map(({ name, files }) => `${code(`${name}/`)} (${files} read)`);
    lines.push(`- Top-level directories: ${directories.slice(0, MAX_LIST_ITEMS).join(', ')}`);
  }
  if (facts.rootFiles.length > 0) {
    lines.push(`- Top-level files: ${facts.rootFiles.slice(0, MAX_LIST_ITEMS).map(code).join(', ')}`);
  }
  if (lines.length === 1) lines.push('- Nothing read.');
  return lines;
}

function entryPointsSection(facts: SummaryFacts): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const { target, via } of facts.entryPoints) {
    if (seen.has(target)) continue;
    seen.add(target);
    items.push(`- ${code(target)} — ${via}`);
  }
  return ['## Entry points', ...(items.length > 0 ? capped(items) : ['- None found in the files read.'])];
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

export function writeSummary(facts: SummaryFacts, maxTokens?: number): string {
  const name = clip(facts.name?.value ?? 'this repository', 80);
  const sections = [
    [
      openingLine(facts, name),
      '',
      '_Written by the built-in heuristic of mcp-model-input, not by a language model: ' +
        'extracted and counted from the files listed at the end._',
    ],
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
