/**
 * Admission control for tool calls: at most `maxConcurrent` run at once, the next ones wait in a bounded queue
 * (first come, first served), and one principal holds at most `maxPerPrincipal` places (running or waiting).
 * Beyond that a call is refused at once with a clear busy answer and a retry hint: over HTTP 503 (the server is
 * full) or 429 (this principal has its share), both with `Retry-After`; on stdio a JSON-RPC error.
 *
 * Only `tools/call` is admitted here: the cheap methods (`server/discover`, `tools/list`) never wait behind it.
 * A waiting call whose client cancels or disconnects leaves the queue.
 *
 * A front may take the place before the server sees the request (the HTTP front does, so that a waiting call holds
 * only its parsed body, not a server and a flow) and hand it over with {@link Admission.handOver}: the tool-call
 * handler serving that request {@link Admission.claim}s it instead of taking a second one. Admitted calls start one
 * per turn of the event loop (`setImmediate`), never inside the turn of the call that made room nor several in one.
 */
import { availableParallelism } from 'node:os';

import { ProtocolError } from '@modelcontextprotocol/server';

/** Tool calls running at once when they may wait on a server-owned model provider (network round trips of seconds). */
export const DEFAULT_MAX_CONCURRENT_CALLS = 16;
/** Running calls per core when every model is the host's or the built-in one: all their work is CPU work. */
export const LOCAL_CALLS_PER_CORE = 2;

/**
 * The default of `maxConcurrent`. A call answered by the host's model (an MRTR round) or the built-in heuristic
 * waits on nothing remote: it is CPU work, and all its JavaScript runs on the one event loop that also answers
 * `server/discover`. More of them at once only interleave their pieces, so that every turn of the loop carries
 * several calls' work: {@link LOCAL_CALLS_PER_CORE} per core (2 at least, {@link DEFAULT_MAX_CONCURRENT_CALLS} at
 * most; git, file reads and the tokenizer run beside the loop), the rest wait cheaply in the queue. A server that
 * may call a provider keeps {@link DEFAULT_MAX_CONCURRENT_CALLS}: such calls mostly wait on the network.
 */
export function defaultMaxConcurrentCalls(usesProviders: boolean, cores = availableParallelism()): number {
  if (usesProviders) return DEFAULT_MAX_CONCURRENT_CALLS;
  return Math.min(DEFAULT_MAX_CONCURRENT_CALLS, Math.max(2, LOCAL_CALLS_PER_CORE * cores));
}
export const DEFAULT_MAX_CALLS_PER_PRINCIPAL = 32;
export const DEFAULT_MAX_QUEUED_CALLS = 64;
export const DEFAULT_BUSY_RETRY_AFTER_SECONDS = 2;
/** JSON-RPC error code of a busy answer (implementation-defined server error range). */
export const SERVER_BUSY_CODE = -32000;

export interface AdmissionOptions {
  maxConcurrent?: number;
  maxPerPrincipal?: number;
  maxQueued?: number;
  retryAfterSeconds?: number;
}

/** Why a call is refused: the whole server is full (`busy`), or this principal holds its share (`principal_busy`). */
export interface AdmissionRefusal {
  reason: 'busy' | 'principal_busy';
  /** The HTTP status of the answer: 503 or 429. */
  status: 503 | 429;
  retryAfterSeconds: number;
  message: string;
}

/** The JSON-RPC form of a refusal (stdio, and a call that lost a race after the HTTP front's check). */
export class ServerBusyError extends ProtocolError {
  override name = 'ServerBusyError';

  constructor(readonly refusal: AdmissionRefusal) {
    super(SERVER_BUSY_CODE, refusal.message, {
      reason: refusal.reason,
      retryAfterSeconds: refusal.retryAfterSeconds,
    });
  }
}

export interface Admission {
  /** What a new call of `principal` would get now, without taking a place: a refusal, or undefined. */
  check(principal: string): AdmissionRefusal | undefined;
  /**
   * Takes a place for a call of `principal`: resolves with its release once the call may run (on the next free
   * turn of the event loop, or after waiting); throws `ServerBusyError` when refused, and the signal's reason when
   * aborted while waiting.
   */
  acquire(principal: string, signal?: AbortSignal): Promise<() => void>;
  /**
   * Hands a place taken by a front over to whoever serves `request` (keyed by that object). Returns `expire`, which
   * the front calls once the request is answered: it releases the place if nobody claimed it (the request was
   * refused before its handler ran), and a later claim finds nothing.
   */
  handOver(request: object, release: () => void): () => void;
  /** The place handed over for `request` (its release), taken once; undefined when there is none. */
  claim(request: object): (() => void) | undefined;
  readonly running: number;
  readonly queued: number;
}

interface Waiter {
  principal: string;
  start(): void;
}

export function createAdmission(options: AdmissionOptions = {}): Admission {
  const maxConcurrent = options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_CALLS;
  const maxPerPrincipal = options.maxPerPrincipal ?? DEFAULT_MAX_CALLS_PER_PRINCIPAL;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED_CALLS;
  const retryAfterSeconds = options.retryAfterSeconds ?? DEFAULT_BUSY_RETRY_AFTER_SECONDS;
  let running = 0;
  const queue: Waiter[] = [];
  const handedOver = new WeakMap<object, () => void>();
  /** Places (running or waiting) per principal. */
  const held = new Map<string, number>();

  const hold = (principal: string, delta: number): void => {
    const count = (held.get(principal) ?? 0) + delta;
    if (count <= 0) held.delete(principal);
    else held.set(principal, count);
  };

  const check = (principal: string): AdmissionRefusal | undefined => {
    if ((held.get(principal) ?? 0) >= maxPerPrincipal) {
      return {
        reason: 'principal_busy',
        status: 429,
        retryAfterSeconds,
        message: `Too many requests: this caller already has ${maxPerPrincipal} tool calls running or waiting; retry later`,
      };
    }
    if (running >= maxConcurrent && queue.length >= maxQueued) {
      return {
        reason: 'busy',
        status: 503,
        retryAfterSeconds,
        message: `Server busy: ${running} tool calls running and ${queue.length} waiting; retry later`,
      };
    }
    return undefined;
  };

  /**
   * Admitted calls start one per turn of the event loop (`setImmediate`, one after another): a start runs the call's
   * first synchronous stretch (the SDK's validation, the flow up to its first wait), and a turn that carried several
   * would keep a request that has just arrived — a `server/discover` — waiting for all of them.
   */
  const starts: (() => void)[] = [];
  let pumping = false;
  const pump = (): void => {
    starts.shift()?.();
    if (starts.length > 0) setImmediate(pump);
    else pumping = false;
  };
  const onItsOwnTurn = (start: () => void): void => {
    starts.push(start);
    if (pumping) return;
    pumping = true;
    setImmediate(pump);
  };

  const releaser = (principal: string): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      hold(principal, -1);
      const next = queue.shift();
      if (next !== undefined) {
        running++;
        next.start();
      }
    };
  };

  return {
    check,
    async acquire(principal, signal) {
      signal?.throwIfAborted();
      const refusal = check(principal);
      if (refusal !== undefined) throw new ServerBusyError(refusal);
      hold(principal, 1);
      if (running < maxConcurrent) {
        running++;
        await new Promise<void>((resolve) => onItsOwnTurn(resolve));
        return releaser(principal);
      }
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          principal,
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            onItsOwnTurn(resolve);
          },
        };
        const onAbort = (): void => {
          const index = queue.indexOf(waiter);
          if (index !== -1) queue.splice(index, 1);
          hold(principal, -1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
      });
      return releaser(principal);
    },
    handOver(request, release) {
      handedOver.set(request, release);
      return () => {
        const unclaimed = handedOver.get(request);
        handedOver.delete(request);
        unclaimed?.();
      };
    },
    claim(request) {
      const release = handedOver.get(request);
      handedOver.delete(request);
      return release;
    },
    get running() {
      return running;
    },
    get queued() {
      return queue.length;
    },
  };
}
