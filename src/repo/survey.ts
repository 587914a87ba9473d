/**
 * What the pick prompt is built from, at a cost that does not grow with the repository beyond one listing and
 * one scoring pass: the outline of every listed path, and the best candidates by the documented score
 * (rank.ts), inspected in rank order — size cap, symlink confinement, NUL sniff — until their
 * `path<TAB>bytes` lines fill the candidate budget. A listing that fits the budget is inspected whole.
 */
import type { InspectContext } from './classify.js';
import { inspectPath } from './classify.js';
import { buildOutline } from './outline.js';
import { RECENT_COMMIT_POINTS, rankFiles, scorePaths, sortRanked } from './rank.js';
import { SkipCollector } from './skips.js';
import type { RepoFile, RepoListing, RepoProgress, RepoSurvey } from './types.js';

/** Default for {@link SurveyOptions.candidateBytes}: the whole pick prompt's default budget. */
export const DEFAULT_CANDIDATE_BYTES = 24 * 1024;
/** Paths inspected per batch (the file system work inside is bounded by the limiter). */
const BATCH = 64;
/** However many candidates turn out binary or unreadable, the survey stops inspecting after this many. */
export const MAX_INSPECTED = 4000;

/** Bytes of one candidate line in the pick prompt: `path<TAB>bytes<LF>`. */
export function candidateLineBytes(file: RepoFile): number {
  return Buffer.byteLength(file.path, 'utf8') + String(file.size).length + 2;
}

export interface SurveyInput {
  listing: RepoListing;
  /** Paths changed by recent commits; awaited only once every path is scored, so git log runs meanwhile. */
  recent: Promise<ReadonlySet<string> | undefined>;
  candidateBytes: number;
  inspect: InspectContext;
  onProgress?: (event: RepoProgress) => void;
}

export async function surveyListing(input: SurveyInput): Promise<RepoSurvey> {
  const { listing } = input;
  const outline = buildOutline(listing.paths, listing.base);
  const scored = scorePaths(listing.paths);
  const recent = await input.recent;
  const context = recent === undefined ? {} : { recent };
  if (recent !== undefined) {
    for (const entry of scored) if (recent.has(entry.path)) entry.score += RECENT_COMMIT_POINTS;
  }
  const byPath = sortRanked(scored);

  const skips = new SkipCollector();
  skips.merge(listing.skipped);
  const accepted: RepoFile[] = [];
  let bytes = 0;
  let inspected = 0;
  while (inspected < byPath.length && inspected < MAX_INSPECTED && bytes < input.candidateBytes) {
    const batch = byPath.slice(inspected, Math.min(inspected + BATCH, MAX_INSPECTED));
    const verdicts = await Promise.all(batch.map((file) => inspectPath(input.inspect, file.path)));
    for (const verdict of verdicts) {
      if (verdict.kind === 'skip') {
        skips.add(verdict.reason, verdict.example);
      } else if (bytes < input.candidateBytes) {
        accepted.push(verdict.file);
        bytes += candidateLineBytes(verdict.file);
      }
    }
    inspected += batch.length;
    input.onProgress?.({ phase: 'inspecting', done: inspected });
  }

  const candidates = rankFiles(accepted, context).map(({ path, size, score, reasons }) => ({
    path,
    size,
    score,
    reasons,
  }));
  return {
    base: listing.base,
    source: listing.source,
    total: listing.paths.length,
    outline: outline.entries,
    outlineRest: outline.rest,
    candidates,
    inspected,
    history: recent !== undefined,
    skipped: skips.toArray(),
  };
}
