/**
 * The search tool: matching paths, then matching lines of the listed text files under a directory, in listing
 * order, within the scan limits (files and bytes scanned) and the match limit. Files are inspected (size cap, NUL
 * sniff, symlinks) and read through the repository reader, so the same confinement and deny list apply as to
 * read_file.
 */
import { escapeControls } from '../../protocol/sanitize.js';
import { formatRedactionMarker, redactLines, scanWhole } from '../secrets/index.js';
import { formatTruncationMarker } from '../reader.js';
import type { ReadFileResult, Repository } from '../types.js';
import { bytesOf, failure, fitLines, quoted } from './results.js';
import { compileSearchPattern, type LineMatcher } from './searchPattern.js';
import type { ExploreResult, ExploreToolLimits } from './types.js';

/** Paths of a search scanned per inspection batch. */
const SCAN_BATCH = 64;
/** Path-name matches a search shows before its content matches. */
const MAX_PATH_MATCHES = 20;

export interface SearchInput {
  repo: Repository;
  /** The listed paths under `dir`, in listing order. */
  scope: readonly string[];
  dir: string;
  pattern: string;
  regex: boolean;
  limits: ExploreToolLimits;
  maxBytes: number;
}

interface Scan {
  hits: string[];
  files: Set<string>;
  scanned: number;
  stopped?: string;
  /** Secrets replaced in the lines shown, per kind. */
  redacted: Map<string, number>;
}

const MARKER_START = formatRedactionMarker('').slice(0, -1);

/** `line` cut to `max` characters, never inside one of our markers (the cut then falls after it). */
export function clipLine(line: string, max: number): string {
  if (line.length <= max) return line;
  let end = max;
  const open = line.lastIndexOf(MARKER_START, end - 1);
  if (open >= 0) {
    const close = line.indexOf(']', open);
    if (close >= end) end = close + 1;
  }
  return end >= line.length ? line : `${line.slice(0, end)}…`;
}

/**
 * The lines of a file that match, redacted: the file is scanned whole (only when a line of it matches at all), each
 * line is redacted as a window of it, and the pattern is tested again on the redacted line — so a search can
 * neither show a part of a secret nor tell, by matching or not, what a secret holds.
 */
async function matchingLines(
  file: ReadFileResult,
  matcher: LineMatcher,
): Promise<{ lines: Array<[number, string]>; redacted: Map<string, number> }> {
  const raw = file.content.split('\n');
  const redacted = new Map<string, number>();
  if (!raw.some((line) => matcher.test(line))) return { lines: [], redacted };
  // Decided with the text past the read's cut, when there is one (reader.ts: `after`).
  const marker = file.after === undefined ? '' : formatTruncationMarker(file.bytesShown, file.size);
  const shown = marker !== '' && file.content.endsWith(marker) ? file.content.slice(0, -marker.length) : file.content;
  const whole = shown === file.content ? shown : shown + (file.after ?? '');
  const findings = await scanWhole(whole, file.path);
  const { lines, touched } = redactLines(whole, findings, shown.length);
  const out: Array<[number, string]> = [];
  const counted = new Set<number>();
  for (const [index, line] of lines.entries()) {
    if (!matcher.test(line)) continue;
    out.push([index, line]);
    for (const at of touched[index] ?? []) {
      if (counted.has(at)) continue;
      counted.add(at);
      redacted.set(findings[at]!.kind, (redacted.get(findings[at]!.kind) ?? 0) + 1);
    }
  }
  return { lines: out, redacted };
}

async function scanContents(input: SearchInput, matcher: LineMatcher): Promise<Scan> {
  const { repo, scope, limits } = input;
  const scan: Scan = { hits: [], files: new Set(), scanned: 0, redacted: new Map() };
  let bytes = 0;
  for (let at = 0; at < scope.length; at += SCAN_BATCH) {
    const texts = (await repo.inspect(scope.slice(at, at + SCAN_BATCH))).files;
    const read = await repo.read(
      texts.map((file) => file.path),
      { perFileBytes: limits.maxScanFileBytes, totalBytes: Math.max(0, limits.maxScanBytes - bytes) },
    );
    for (const file of read.files) {
      if (scan.scanned >= limits.maxScanFiles || bytes >= limits.maxScanBytes) {
        return { ...scan, stopped: 'the scan limit' };
      }
      scan.scanned++;
      bytes += file.bytesShown;
      const matched = await matchingLines(file, matcher);
      for (const [index, line] of matched.lines) {
        const clipped = clipLine(line, limits.maxMatchChars);
        scan.hits.push(`${escapeControls(file.path)}:${index + 1}: ${escapeControls(clipped.trim())}`);
        scan.files.add(file.path);
        if (scan.hits.length >= limits.maxMatches) break;
      }
      for (const [kind, count] of matched.redacted) scan.redacted.set(kind, (scan.redacted.get(kind) ?? 0) + count);
      if (scan.hits.length >= limits.maxMatches) return { ...scan, stopped: 'the match limit' };
    }
  }
  return scan;
}

export async function searchFiles(input: SearchInput): Promise<ExploreResult> {
  const matcher = await compileSearchPattern(input.pattern, input.regex);
  if ('invalid' in matcher) {
    return failure('bad_pattern', `Not a valid regular expression (RE2 syntax): ${matcher.invalid}.`);
  }
  const pathHits = input.scope.filter((path) => matcher.test(path)).slice(0, MAX_PATH_MATCHES);
  const scan = await scanContents(input, matcher);
  const kind = input.regex ? 'regular expression' : 'fixed string';
  const header =
    `Search for ${JSON.stringify(escapeControls(input.pattern))} (${kind}) under ${quoted(input.dir === '' ? '.' : input.dir)}: ` +
    `${scan.hits.length} matching lines in ${scan.files.size} files; ${scan.scanned} of ${input.scope.length} files scanned` +
    (scan.stopped === undefined ? '.' : ` (stopped at ${scan.stopped}).`);
  const names =
    pathHits.length === 0 ? [] : ['Paths that match:', ...pathHits.map((path) => `  ${escapeControls(path)}`)];
  const lines = [header, ...names, ...(scan.hits.length > 0 ? ['Lines that match:', ...scan.hits] : [])];
  const { text } = fitLines(lines, input.maxBytes);
  return { text, bytes: bytesOf(text), ...(scan.redacted.size > 0 && { redacted: [...scan.redacted] }) };
}
