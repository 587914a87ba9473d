/**
 * The search tool: matching paths, then matching lines of the listed text files under a directory, in listing
 * order, within the scan limits (files and bytes scanned) and the match limit. Files are inspected (size cap, NUL
 * sniff, symlinks) and read through the repository reader, so the same confinement and deny list apply as to
 * read_file.
 */
import { escapeControls } from '../../protocol/sanitize.js';
import type { Repository } from '../types.js';
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
}

async function scanContents(input: SearchInput, matcher: LineMatcher): Promise<Scan> {
  const { repo, scope, limits } = input;
  const scan: Scan = { hits: [], files: new Set(), scanned: 0 };
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
      for (const [index, line] of file.content.split('\n').entries()) {
        if (!matcher.test(line)) continue;
        const clipped = line.length > limits.maxMatchChars ? `${line.slice(0, limits.maxMatchChars)}…` : line;
        scan.hits.push(`${escapeControls(file.path)}:${index + 1}: ${escapeControls(clipped.trim())}`);
        scan.files.add(file.path);
        if (scan.hits.length >= limits.maxMatches) return { ...scan, stopped: 'the match limit' };
      }
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
  return { text, bytes: bytesOf(text) };
}
