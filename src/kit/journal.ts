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
import { createHash, type Hash } from 'node:crypto';

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
  /**
   * The SHA-256 (hex) of the answer's JSON, kept in the store instead of inline (sealed without `v`; brought back,
   * with it).
   */
  r?: string;
}

/** The question of the round in flight: what the retry's answer must be for. */
export interface PendingQuestion {
  t: 's' | 'e';
  k: string;
  /** Digest of the question; absent for a flow's (kit/flowOnKit.ts), which never asks an answered question again. */
  d?: string;
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

/**
 * The digest a journal entry is bound to: kind, step or key, and the question's JSON value — the same for equal JSON
 * values whatever their key order, computed in one walk that feeds SHA-256 directly (no JSON text is built: a
 * question may carry tens of KiB of prompt, and every replayed question is digested again each round).
 */
export function questionDigest(kind: EntryKind, key: string, question: unknown): string {
  const hash = createHash('sha256');
  feedText(hash, kind);
  feedText(hash, key);
  feedValue(hash, question === undefined ? null : question, 0);
  return hash.digest('base64url');
}

/** Deeper than this, a question is refused (the protocol bounds nesting far below it). */
const MAX_QUESTION_DEPTH = 256;

/** A string, length-prefixed: unambiguous without escaping. */
function feedText(hash: Hash, text: string): void {
  hash.update(`${text.length}:`);
  hash.update(text, 'utf8');
}

/** A JSON value, tagged by type; object keys sorted, members that JSON leaves out left out. */
function feedValue(hash: Hash, value: unknown, depth: number): void {
  if (depth > MAX_QUESTION_DEPTH) throw new TypeError('questionDigest: the question is nested too deeply');
  if (value === null || value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    hash.update('z');
    return;
  }
  switch (typeof value) {
    case 'string':
      hash.update('s');
      feedText(hash, value);
      return;
    case 'number':
      hash.update(Number.isFinite(value) ? `n${value};` : 'z');
      return;
    case 'boolean':
      hash.update(value ? 't' : 'f');
      return;
    case 'bigint':
      throw new TypeError('questionDigest: a bigint is not JSON');
  }
  const object = value as { toJSON?: () => unknown };
  if (typeof object.toJSON === 'function') {
    feedValue(hash, object.toJSON(), depth + 1);
    return;
  }
  if (Array.isArray(value)) {
    hash.update(`[${value.length}:`);
    for (const item of value) feedValue(hash, item, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((name) => {
      const member = record[name];
      return member !== undefined && typeof member !== 'function' && typeof member !== 'symbol';
    })
    .sort();
  hash.update(`{${keys.length}:`);
  for (const name of keys) {
    feedText(hash, name);
    feedValue(hash, record[name], depth + 1);
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const sizeOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

export type JournalStore = Pick<SharedStore, 'keep' | 'recall'>;

/**
 * The state with its largest inline entries spilled to the store until it fits `budgetBytes` (kept until
 * `expiresAtMs`). An entry brought back from the store (it still carries its `r`) stays spilled without being
 * written again: it was kept for every round the call may take. Without a store that keeps values, nothing spills
 * (the caller's seal then finds it too large).
 */
export async function spillJournal(
  state: KitState,
  budgetBytes: number,
  store: JournalStore | undefined,
  expiresAtMs: number,
): Promise<KitState> {
  const entries = state.j.map((entry): JournalEntry => {
    if (entry.r === undefined) return entry;
    const { v: _kept, ...spilled } = entry;
    return spilled;
  });
  let size = sizeOf({ ...state, j: entries });
  if (size <= budgetBytes || store?.keep === undefined) return { ...state, j: entries };
  const bySize = entries
    .map((entry, index) => ({ index, json: entry.v === undefined ? '' : JSON.stringify(entry.v) }))
    .filter((item) => Buffer.byteLength(item.json, 'utf8') > 64)
    .sort((a, b) => b.json.length - a.json.length);
  for (const { index, json } of bySize) {
    if (size <= budgetBytes) break;
    const ref = sha256(json);
    await store.keep(`${STORE_PREFIX}${ref}`, json, expiresAtMs);
    const { v: _spilled, ...rest } = entries[index]!;
    entries[index] = { ...rest, r: ref };
    size -= Buffer.byteLength(json, 'utf8') - ref.length - 6;
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
      // The entry keeps its `r`: sealed again, it stays spilled (spillJournal).
      return { ...entry, v: JSON.parse(json) as unknown };
    }),
  );
  return { ...state, j: entries };
}
