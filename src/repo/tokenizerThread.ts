/**
 * The tokenizer's own thread: `o200k_base` loads there (a few hundred milliseconds of CPU) while this thread goes on,
 * and each call of the {@link Encoder} is one message. The thread knows only the encoder's three operations; the
 * piecewise counting and cutting stay in tokens.ts, so the results are those of the encoder loaded in-thread.
 *
 * The thread runs a few lines of CommonJS given as source (no file of ours to find, so it works the same from the
 * build, the CLI bundle and the sources under test) that require the package's CommonJS build by its resolved path.
 * It never keeps the process alive while no call waits for it. If it cannot start, fails or exits, the calls in
 * flight and every later one go to the in-thread encoder instead.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The encoder's operations, asynchronous so that they can live on another thread. */
export interface Encoder {
  /** The token count of each piece (each at most a few KB: tokens.ts cuts long texts). */
  count(pieces: string[]): Promise<number[]>;
  encode(text: string): Promise<number[]>;
  decode(tokens: number[]): Promise<string>;
}

type Operation = { op: 'count'; arg: string[] } | { op: 'encode'; arg: string } | { op: 'decode'; arg: number[] };
type Reply = { id: number; value?: unknown; error?: string };

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const encoder = require(workerData.encoderPath);
parentPort.on('message', ({ id, op, arg }) => {
  let reply;
  try {
    const value =
      op === 'count' ? arg.map((piece) => encoder.countTokens(piece)) : op === 'encode' ? encoder.encode(arg) : encoder.decode(arg);
    reply = { id, value };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
});
`;

interface Pending {
  operation: Operation;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** Runs one operation on an in-thread encoder. */
function runOn(encoder: Encoder, operation: Operation): Promise<unknown> {
  if (operation.op === 'count') return encoder.count(operation.arg);
  if (operation.op === 'encode') return encoder.encode(operation.arg);
  return encoder.decode(operation.arg);
}

/**
 * Starts the thread and the encoder's loading on it. `fallback` makes the in-thread encoder, used (made once) if the
 * thread fails. Undefined when no thread can be started here.
 */
export function createTokenizerThread(
  fallback: () => Encoder,
  /** The encoder module the thread requires; the package's by default (tests give a broken one). */
  encoderPath?: string,
): Encoder | undefined {
  let worker: Worker;
  try {
    encoderPath ??= createRequire(import.meta.url).resolve('gpt-tokenizer/encoding/o200k_base');
    // No inherited flags: a module preloaded or a loader registered by the main thread has no business here. (The
    // thread writes nothing; its stdout is left as Node sets it, since a piped one would hold the process open.)
    worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { encoderPath }, execArgv: [] });
  } catch {
    return undefined;
  }

  const pending = new Map<number, Pending>();
  let nextId = 0;
  let inThread: Encoder | undefined;
  let broken = false;

  const viaFallback = (entry: Pending): void => {
    inThread ??= fallback();
    runOn(inThread, entry.operation).then(entry.resolve, entry.reject);
  };
  const fail = (): void => {
    if (broken) return;
    broken = true;
    for (const entry of pending.values()) viaFallback(entry);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', fail);
  worker.on('message', (reply: Reply) => {
    const entry = pending.get(reply.id);
    if (entry === undefined) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error !== undefined) entry.reject(new Error(reply.error));
    else entry.resolve(reply.value);
  });
  // After the listeners (adding one refs the worker again): idle, the thread never holds the process open.
  worker.unref();

  const ask = (operation: Operation): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const entry: Pending = { operation, resolve, reject };
      if (broken) return viaFallback(entry);
      const id = nextId++;
      pending.set(id, entry);
      worker.ref();
      worker.postMessage({ id, ...operation });
    });
  return {
    count: async (pieces) => (await ask({ op: 'count', arg: pieces })) as number[],
    encode: async (text) => (await ask({ op: 'encode', arg: text })) as number[],
    decode: async (tokens) => (await ask({ op: 'decode', arg: tokens })) as string,
  };
}
