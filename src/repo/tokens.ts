/**
 * Token estimates with a real tokenizer: `gpt-tokenizer`'s `o200k_base` (GPT-4o and later). Other model families
 * tokenize differently (typically within ±20% on code and English), so counts are estimates for budgeting, not
 * billing. The encoder (about 60 MB of ranks) is loaded on first use only, so listing never pays for it — on a worker
 * thread where the build provides one (tokenWorker.ts), so that loading it never blocks this thread;
 * `preloadTokenizer` starts that early.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { cutWith, type TokenReply, type TokenRequest } from './tokenCut.js';

interface Tokenizer {
  count(text: string): Promise<number>;
  cut(text: string, limit: number): Promise<{ text: string; tokens: number }>;
}

type Ask = { op: 'count'; text: string } | { op: 'cut'; text: string; limit: number };

/** The worker's entry beside this module: present in the build, absent when the sources run directly (tests). */
const WORKER_FILE = new URL('./tokenWorker.js', import.meta.url);

let current: Tokenizer | undefined;

/** The encoder loaded into this thread (blocking it for about a third of a second, once). */
function inThread(): Tokenizer {
  const loaded = import('gpt-tokenizer/encoding/o200k_base');
  return {
    count: async (text) => (await loaded).countTokens(text),
    cut: async (text, limit) => cutWith(await loaded, text, limit),
  };
}

/**
 * The encoder on its own thread: it loads while this thread goes on, and each count is one message. The worker
 * never keeps the process alive while idle; if it fails, the requests in flight and all later ones run in-thread.
 */
function inWorker(): Tokenizer | undefined {
  if (WORKER_FILE.protocol !== 'file:' || !existsSync(fileURLToPath(WORKER_FILE))) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(WORKER_FILE);
  } catch {
    return undefined;
  }
  type Pending = { ask: Ask; resolve: (reply: TokenReply) => void; reject: (error: Error) => void };
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let fallback: Tokenizer | undefined;
  const viaFallback = (ask: Ask, into: Pending): void => {
    fallback ??= inThread();
    const answer =
      ask.op === 'count'
        ? fallback.count(ask.text).then((count) => ({ id: -1, count }))
        : fallback.cut(ask.text, ask.limit).then((cut) => ({ id: -1, cut }));
    answer.then(into.resolve, into.reject);
  };
  let broken = false;
  const fail = (): void => {
    broken = true;
    for (const entry of pending.values()) viaFallback(entry.ask, entry);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', fail);
  worker.on('message', (reply: TokenReply) => {
    const entry = pending.get(reply.id);
    if (entry === undefined) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error !== undefined) entry.reject(new Error(reply.error));
    else entry.resolve(reply);
  });
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();
  const ask = (question: Ask): Promise<TokenReply> =>
    new Promise((resolve, reject) => {
      const entry = { ask: question, resolve, reject };
      if (broken) return viaFallback(question, entry);
      const id = nextId++;
      pending.set(id, entry);
      worker.ref();
      worker.postMessage({ ...question, id } satisfies TokenRequest);
    });
  return {
    count: async (text) => (await ask({ op: 'count', text })).count ?? 0,
    cut: async (text, limit) => (await ask({ op: 'cut', text, limit })).cut ?? { text: '', tokens: 0 },
  };
}

function tokenizer(): Tokenizer {
  return (current ??= inWorker() ?? inThread());
}

/**
 * Starts loading the encoder on its own thread, so that the first count does not wait for it. Does nothing where
 * there is no worker (the sources run directly): loading in-thread would block the caller instead.
 */
export function preloadTokenizer(): void {
  if (current === undefined) current = inWorker();
}

/** Estimated tokens of `text`. A token covers at least one UTF-8 byte, so the empty string is 0. */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  return tokenizer().count(text);
}

/**
 * The longest prefix of `text` with at most `maxTokens` tokens, cut between characters (never inside a
 * surrogate pair), and its token count. Text that fits is returned whole. Texts with no more UTF-8 bytes than
 * `maxTokens` are never tokenized: they cannot exceed it.
 */
export async function cutToTokens(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
  const limit = Math.max(0, Math.floor(maxTokens));
  if (Buffer.byteLength(text, 'utf8') <= limit) return { text, tokens: await countTokens(text) };
  return tokenizer().cut(text, limit);
}
