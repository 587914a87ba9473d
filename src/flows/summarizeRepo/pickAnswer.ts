/** Parsing and validating the model's `pick_files` answer. Untrusted text in, candidate paths out. */
import type { Repository } from '../../repo/index.js';
import { FlowAnswerError } from '../flowAnswerError.js';
import { PICK_KEY } from './schema.js';

const FENCE = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/;
const MAX_REPORTED = 8;
const MAX_REPORTED_LENGTH = 120;

export interface PickValidation {
  picked: string[];
  dropped: string[];
}

/** The JSON array of strings in the answer text; a single ```json fence is tolerated. */
export function parsePickText(text: string): string[] {
  const fenced = FENCE.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new FlowAnswerError(PICK_KEY, 'the answer is not JSON (expected a JSON array of file paths)');
  }
  if (!Array.isArray(value)) throw new FlowAnswerError(PICK_KEY, 'the answer is not a JSON array of file paths');
  return value.map((entry) => (typeof entry === 'string' ? entry : (JSON.stringify(entry) ?? String(entry))));
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
  entries: readonly string[],
  subPath: string | undefined,
  maxFiles: number,
): Promise<PickValidation> {
  const picked: string[] = [];
  const dropped: string[] = [];
  for (const entry of entries) {
    const file =
      picked.length < maxFiles && entry.length <= 4096 ? await repo.resolveCandidate(entry, subPath) : undefined;
    if (file === undefined || picked.includes(file.path)) {
      if (dropped.length < MAX_REPORTED) dropped.push(report(entry));
      continue;
    }
    picked.push(file.path);
  }
  if (picked.length === 0) {
    throw new FlowAnswerError(PICK_KEY, 'none of the answered paths is a candidate file of this repository');
  }
  return { picked, dropped };
}
