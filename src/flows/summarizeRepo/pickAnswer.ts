/** Parsing and validating the model's `pick_files` answer. Untrusted text in, candidate paths out. */
import type { CandidateReader, Repository } from '../../repo/index.js';
import { FlowAnswerError } from '../flowAnswerError.js';
import { findPickList, type PickEntry } from './pickList.js';
import { PICK_INSTRUCTION } from './prompts.js';
import { SECRET_FILE_SUFFIX } from './redaction.js';
import { PICK_KEY } from './schema.js';
import { escapeControls } from '../../protocol/sanitize.js';

const MAX_REPORTED = 8;
const MAX_REPORTED_LENGTH = 120;
/** Longer entries are dropped: real paths are shorter, and the picked paths travel in the sealed state. */
const MAX_PATH_LENGTH = 1024;
/**
 * A pick answer is a short list (at most 8 paths, perhaps in some prose); a longer text is refused before any
 * parsing looks at it.
 */
export const MAX_PICK_ANSWER_BYTES = 64 * 1024;
/** The candidate list's header line in the pick prompt (prompts.ts). */
const CANDIDATE_HEADER = /^Candidate files \(\d+ listed of \d+;/m;
/** Distinct entries looked up in the repository per answer, beyond `maxFiles`: the rest is dropped unread. */
const EXTRA_LOOKUPS = 8;

export interface PickValidation {
  picked: string[];
  dropped: string[];
}

/**
 * The file list in the answer text (see pickList.ts for what is accepted). Entries that are not
 * strings are kept as their JSON text so they are reported as dropped, never used as paths.
 */
export function parsePickText(text: string): PickEntry[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_PICK_ANSWER_BYTES) {
    throw new FlowAnswerError(
      PICK_KEY,
      `the answer is longer than ${MAX_PICK_ANSWER_BYTES} bytes (expected a short JSON array of file paths)`,
    );
  }
  // An echo of the prompt holds its example array: taken as the pick, it would look like an answer.
  if (text.includes(PICK_INSTRUCTION) || CANDIDATE_HEADER.test(text)) {
    throw new FlowAnswerError(PICK_KEY, 'the answer repeats the prompt (its instructions and example), not a pick');
  }
  const found = findPickList(text);
  if (found.kind === 'unusable') throw new FlowAnswerError(PICK_KEY, found.reason);
  return found.entries;
}

/** A dropped entry as the result echoes it: cut, controls and format characters escaped. */
function report(entry: string): string {
  return escapeControls(entry.length > MAX_REPORTED_LENGTH ? `${entry.slice(0, MAX_REPORTED_LENGTH)}…` : entry);
}

/**
 * Keeps the entries that are candidate files under `subPath` (normalized, deduplicated, at most
 * `maxFiles`); everything else is dropped and reported. Nothing left is an error. Repeated entries are
 * dropped before any file work, and at most `maxFiles + 8` distinct entries are looked up at all. With a
 * `reader` (Repository.candidateReader, same `subPath`), each kept file is read as it is looked up.
 */
export async function validatePick(
  repo: Repository,
  entries: readonly PickEntry[],
  subPath: string | undefined,
  maxFiles: number,
  reader?: CandidateReader,
): Promise<PickValidation> {
  const picked: string[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  let lookups = 0;
  for (const entry of entries) {
    const path = typeof entry === 'string' ? entry : undefined;
    if (path !== undefined) {
      if (seen.has(path)) continue;
      seen.add(path);
    }
    const lookup =
      path !== undefined &&
      picked.length < maxFiles &&
      path.length <= MAX_PATH_LENGTH &&
      lookups < maxFiles + EXTRA_LOOKUPS;
    if (lookup) lookups++;
    const file = !lookup ? undefined : reader ? await reader.take(path) : await repo.resolveCandidate(path, subPath);
    if (file === undefined || picked.includes(file.path)) {
      const secret = path !== undefined && repo.isSecretFile(path) ? SECRET_FILE_SUFFIX : '';
      if (dropped.length < MAX_REPORTED)
        dropped.push(report(path ?? (entry as { notAPath: string }).notAPath) + secret);
      continue;
    }
    picked.push(file.path);
  }
  if (picked.length === 0) {
    throw new FlowAnswerError(PICK_KEY, 'none of the answered paths is a candidate file of this repository');
  }
  return { picked, dropped };
}
