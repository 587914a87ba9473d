/** Parsing and validating the model's `pick_files` answer. Untrusted text in, candidate paths out. */
import type { Repository } from '../../repo/index.js';
import { FlowAnswerError } from '../flowAnswerError.js';
import { findPickList, type PickEntry } from './pickList.js';
import { PICK_KEY } from './schema.js';

const MAX_REPORTED = 8;
const MAX_REPORTED_LENGTH = 120;
/** Longer entries are dropped: real paths are shorter, and the picked paths travel in the sealed state. */
const MAX_PATH_LENGTH = 1024;

export interface PickValidation {
  picked: string[];
  dropped: string[];
}

/**
 * The file list in the answer text (see pickList.ts for what is accepted). Entries that are not
 * strings are kept as their JSON text so they are reported as dropped, never used as paths.
 */
export function parsePickText(text: string): PickEntry[] {
  const found = findPickList(text);
  if (found.kind === 'unusable') throw new FlowAnswerError(PICK_KEY, found.reason);
  return found.entries;
}

function report(entry: string): string {
  return entry.length > MAX_REPORTED_LENGTH ? `${entry.slice(0, MAX_REPORTED_LENGTH)}…` : entry;
}

/**
 * Keeps the entries that are candidate files under `subPath` (normalized, deduplicated, at most
 * `maxFiles`); everything else is dropped and reported. Nothing left is an error.
 */
export async function validatePick(
  repo: Repository,
  entries: readonly PickEntry[],
  subPath: string | undefined,
  maxFiles: number,
): Promise<PickValidation> {
  const picked: string[] = [];
  const dropped: string[] = [];
  for (const entry of entries) {
    const path = typeof entry === 'string' ? entry : undefined;
    const file =
      path !== undefined && picked.length < maxFiles && path.length <= MAX_PATH_LENGTH
        ? await repo.resolveCandidate(path, subPath)
        : undefined;
    if (file === undefined || picked.includes(file.path)) {
      if (dropped.length < MAX_REPORTED) dropped.push(report(path ?? (entry as { notAPath: string }).notAPath));
      continue;
    }
    picked.push(file.path);
  }
  if (picked.length === 0) {
    throw new FlowAnswerError(PICK_KEY, 'none of the answered paths is a candidate file of this repository');
  }
  return { picked, dropped };
}
