/**
 * The journal of one model tool call: every answer its `run` has had so far (model answers, elicitations, `once`
 * results), in the order it asked. On MRTR it travels sealed inside `requestState`, and each round replays `run`
 * from the top against it.
 *
 * Each entry is bound to a digest of the exact question it answers (kind, step or key, and the request as sent):
 * a later run that asks something else at that place is refused (`ReplayMismatchError`), never answered with
 * another question's answer.
 *
 * Size: entries travel inline while the journal fits its inline budget; beyond it the largest ones spill to the
 * shared store (`memory:` or `redis://`, the one that makes state single use) under the SHA-256 of their JSON, and
 * the sealed journal keeps only that digest. A spilled entry is checked against its digest when it comes back; one
 * the store no longer has (expired, another store) refuses the round like any invalid state.
 */
import { createHash } from 'node:crypto';

import { canonicalJson } from '../state/index.js';
import type { SharedStore } from '../state/stores/index.js';
import type { UsageTotals } from '../models/usage.js';

/** `s` a model answer, `e` an elicitation result, `o` a `once` result. */
export type EntryKind = 's' | 'e' | 'o';

export interface JournalEntry {
  t: EntryKind;
  /** The step (`s`) or key (`e`, `o`). */
  k: string;
  /** Digest of the question this entry answers. */
  d: string;
  /** The answer, inline (absent for a `once` whose result was undefined, or when spilled). */
  v?: unknown;
  /** The SHA-256 (hex) of the answer's JSON, kept in the store instead of inline. */
  r?: string;
}

/** The question of the round in flight: what the retry's answer must be for. */
export interface PendingQuestion {
  t: 's' | 'e';
  k: string;
  d: string;
  /** The input key on the wire. */
  w: string;
}

/** The kit's state inside the round machinery's sealed payload. */
export interface KitState {
  j: JournalEntry[];
  p?: PendingQuestion;
  /** Notes for the final result (fallbacks). */
  n?: string[];
  /** Server-owned model usage of earlier rounds. */
  u?: UsageTotals;
}

/** The journal's inline budget by default: what stays well under the state codec's 8 KiB token. */
export const DEFAULT_INLINE_JOURNAL_BYTES = 4096;

const STORE_PREFIX = 'kit-journal:';

/** A later run asked another question where the journal holds an answer. */
export class ReplayMismatchError extends Error {
  override name = 'ReplayMismatchError';
  readonly code = 'replay_mismatch' as const;
  readonly position: number;
  readonly key: string;

  constructor(position: number, key: string) {
    super(
      `the run asked a different question at position ${position + 1} ('${key}') than the one the journal answers: ` +
        'run must ask the same questions in the same order given the same answers (wrap work that may differ from ' +
        'run to run in ctx.once)',
    );
    this.position = position;
    this.key = key;
  }
}

/** A spilled entry could not be brought back (unknown to the store, expired, or not what was kept). */
export class JournalLostError extends Error {
  override name = 'JournalLostError';
  readonly code = 'journal_lost' as const;
}

/** The digest a journal entry is bound to: kind, step or key, and the question as canonical JSON. */
export function questionDigest(kind: EntryKind, key: string, question: unknown): string {
  const normal = question === undefined ? null : (JSON.parse(JSON.stringify(question)) as unknown);
  return createHash('sha256')
    .update(canonicalJson({ t: kind, k: key, q: normal }), 'utf8')
    .digest('base64url');
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const sizeOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

export type JournalStore = Pick<SharedStore, 'keep' | 'recall'>;

/**
 * The state with its largest inline entries spilled to the store until it fits `budgetBytes` (kept until
 * `expiresAtMs`). Without a store that keeps values, nothing spills (the caller's seal then finds it too large).
 */
export async function spillJournal(
  state: KitState,
  budgetBytes: number,
  store: JournalStore | undefined,
  expiresAtMs: number,
): Promise<KitState> {
  let size = sizeOf(state);
  if (size <= budgetBytes || store?.keep === undefined) return state;
  const entries = state.j.map((entry) => ({ ...entry }));
  const bySize = entries
    .map((entry, index) => ({ index, bytes: entry.v === undefined ? 0 : sizeOf(entry.v) }))
    .filter((item) => item.bytes > 64)
    .sort((a, b) => b.bytes - a.bytes);
  for (const { index, bytes } of bySize) {
    if (size <= budgetBytes) break;
    const entry = entries[index]!;
    const json = JSON.stringify(entry.v);
    const ref = sha256(json);
    await store.keep(`${STORE_PREFIX}${ref}`, json, expiresAtMs);
    delete entry.v;
    entry.r = ref;
    size -= bytes - ref.length - 6;
  }
  return { ...state, j: entries };
}

/** The state with every spilled entry brought back from the store and checked against its digest. */
export async function restoreJournal(state: KitState, store: JournalStore | undefined): Promise<KitState> {
  if (!state.j.some((entry) => entry.r !== undefined)) return state;
  const entries = await Promise.all(
    state.j.map(async (entry) => {
      if (entry.r === undefined) return entry;
      const json = store?.recall === undefined ? undefined : await store.recall(`${STORE_PREFIX}${entry.r}`);
      if (json === undefined) throw new JournalLostError(`spilled journal entry '${entry.k}' is not in the store`);
      if (sha256(json) !== entry.r) throw new JournalLostError(`spilled journal entry '${entry.k}' does not match`);
      const { r: _ref, ...inline } = entry;
      return { ...inline, v: JSON.parse(json) as unknown };
    }),
  );
  return { ...state, j: entries };
}
