import { isReadmePath, rankFiles } from '../../../repo/rank.js';
import type { RankInput } from '../../../repo/rank.js';
import { parseFacts } from '../factsText.js';

/**
 * The built-in answer to the file-picking prompt:
 *
 *   Pick at most <N> files that best show what this repository is, …
 *   Candidate files (<count> listed of <total>; path<TAB>bytes):
 *   README.md	1234
 *
 * Candidates are ranked by the documented score (`rankFiles`, mtime unknown), then chosen for
 * diversity: at most one README; first one file per top-level directory (a root-level file is its
 * own group, so the README and the manifest can both be chosen), then the best of the rest.
 * Files with a negative score (tests, lock files, vendored or generated files) are only chosen
 * when nothing else was listed; changelogs, licences, contribution guides and agent instructions
 * (`CHANGELOG.md`, `AGENTS.md`…) only when nothing else is left.
 */

export interface PickPrompt {
  limit: number;
  candidates: RankInput[];
  /** From the prompt's repository facts: the primary manifest and the first entry point, in that order. */
  preferred?: string[];
}

const DEFAULT_PICK_LIMIT = 3;
const MAX_PICK_LIMIT = 100;
/** Neutral size for a candidate listed without its byte count: no size penalty either way. */
const UNKNOWN_SIZE = 1000;

export function isPickPrompt(text: string): boolean {
  return (
    /\bpick at most\s+\d+\s+files?\b/i.test(text) ||
    /^[ \t]*candidate files\b/im.test(text) ||
    /\bjson array of file paths\b/i.test(text)
  );
}

function parseCandidateLine(line: string, underHeader: boolean): RankInput | undefined {
  const tab = line.lastIndexOf('\t');
  if (tab > 0) {
    const path = line.slice(0, tab).trim();
    const bytes = line.slice(tab + 1).trim();
    if (path !== '' && /^\d+$/.test(bytes)) return { path, size: Number(bytes) };
    if (!underHeader) return undefined;
  }
  if (!underHeader) return undefined;
  const spaced = /^(\S(?:.*\S)?)\s+(\d+)$/.exec(line);
  if (spaced?.[1] !== undefined && spaced[2] !== undefined) return { path: spaced[1], size: Number(spaced[2]) };
  if (/^[^\s"'[\]]+$/.test(line) && !line.endsWith(':')) return { path: line, size: UNKNOWN_SIZE };
  return undefined;
}

/** Reads the limit and the candidate list; without a `Candidate files` header only `path<TAB>bytes` lines count. */
export function parsePickPrompt(text: string): PickPrompt {
  const limitMatch = /\bpick at most\s+(\d+)\s+files?\b/i.exec(text);
  const limit = limitMatch?.[1] !== undefined ? Math.min(Number(limitMatch[1]), MAX_PICK_LIMIT) : DEFAULT_PICK_LIMIT;
  const lines = text.split(/\r?\n/);
  const headerIndex = lines.findIndex((line) => /^[ \t]*candidate files\b/i.test(line));
  const underHeader = headerIndex >= 0;
  const candidates: RankInput[] = [];
  const seen = new Set<string>();
  for (const raw of lines.slice(headerIndex + 1)) {
    const line = raw.trim();
    if (line === '') {
      if (underHeader && candidates.length > 0) break;
      continue;
    }
    const candidate = parseCandidateLine(line, underHeader);
    if (candidate !== undefined && !seen.has(candidate.path)) {
      seen.add(candidate.path);
      candidates.push(candidate);
    }
  }
  const facts = parseFacts(text);
  const preferred = [facts?.manifests[0]?.path, facts?.entryPoints[0]?.path].filter(
    (path): path is string => path !== undefined && path !== '',
  );
  return { limit, candidates, ...(preferred.length > 0 && { preferred }) };
}

/** Files about the project's process, not what it is: chosen only when nothing else is left. */
const META_DOCUMENT =
  /(^|\/)(CHANGES|CHANGELOG|HISTORY|NEWS|RELEASES?|RELEASING|CONTRIBUTING|CONTRIBUTORS|AUTHORS|LICEN[CS]E|COPYING|NOTICE|CODE_OF_CONDUCT|SECURITY|SUPPORT|GOVERNANCE|AGENTS|CLAUDE|UPGRADING|MIGRATION)([.-][^/]*)?$/i;

function diversityGroup(path: string): string {
  const segments = path.split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.');
  return segments.length > 1 ? `dir:${segments[0] ?? ''}` : `file:${path}`;
}

/** Chooses at most `limit` paths, all from the candidates, deterministically. */
export function choosePicks(prompt: PickPrompt): string[] {
  const ranked = rankFiles(prompt.candidates);
  const positive = ranked.filter((file) => file.score >= 0);
  const eligible = positive.length > 0 ? positive : ranked;
  const chosen = new Set<string>();
  const groups = new Set<string>();
  let readmeChosen = false;

  const pass = (onePerGroup: boolean, meta = false): void => {
    for (const { path } of eligible) {
      if (chosen.size >= prompt.limit) return;
      if (META_DOCUMENT.test(path) !== meta) continue;
      const group = diversityGroup(path);
      const readme = isReadmePath(path);
      if (chosen.has(path) || (readme && readmeChosen) || (onePerGroup && groups.has(group))) continue;
      chosen.add(path);
      groups.add(group);
      readmeChosen ||= readme;
    }
  };
  // The README, then the primary manifest and entry point the facts name (listed files, shown or not).
  const readme = eligible.find((file) => isReadmePath(file.path));
  for (const path of [readme?.path, ...(prompt.preferred ?? [])]) {
    if (path === undefined || chosen.size >= prompt.limit || chosen.has(path)) continue;
    chosen.add(path);
    groups.add(diversityGroup(path));
    readmeChosen ||= isReadmePath(path);
  }
  pass(true);
  pass(false);
  pass(false, true);
  return [...chosen];
}

/** The answer text: a plain JSON array of paths (no code fence), `[]` when nothing could be parsed. */
export function answerPick(text: string): string {
  return JSON.stringify(choosePicks(parsePickPrompt(text)));
}
