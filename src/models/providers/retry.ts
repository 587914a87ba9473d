/**
 * The one retry loop every provider adapter uses (the SDKs' own retries are turned off, so the
 * policy, its bounds and its log lines are ours): retry on 429, 408, 409, 5xx, timeouts and connection
 * failures with exponential backoff, honouring `Retry-After`; give up at once when the provider asks
 * for a longer wait than `maxRetryAfterMs`, or when the wait would pass the tool call's model deadline.
 */
import { setTimeout as delay } from 'node:timers/promises';

import type { Logger } from '../../logger.js';
import type { ModelDeadline } from '../modelSource.js';
import { deadlineExceeded, ModelProviderError } from '../providerError.js';
import { displayModelName } from '../untrusted.js';
import type { ClassifiedFailure } from './failure.js';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = one attempt only). */
  maxRetries: number;
  /** Backoff before retry n is `baseDelayMs * 2^(n-1)`, at most `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this fails the call now instead of holding the tool call open. */
  maxRetryAfterMs: number;
  /** Injected in tests so that no test waits for real. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 30_000,
  sleep: (ms, signal) => delay(ms, undefined, signal === undefined ? undefined : { signal }),
};

export interface RetryRun<T> {
  /** One attempt (1-based); `signal` ends when the caller cancels or the attempt's deadline passes. */
  attempt(number: number, signal: AbortSignal): Promise<T>;
  /** `timedOut`: the attempt's own deadline fired, whatever the SDK made of it. */
  classify(error: unknown, timedOut: boolean): ClassifiedFailure;
  /** Deadline of one attempt, headers and body included. */
  timeoutMs: number;
  policy: RetryPolicy;
  logger: Logger;
  /** For log lines, e.g. `openai:gpt-5.4-mini`. */
  model: string;
  signal?: AbortSignal;
  /** The tool call's model deadline: no wait for a retry may end past it. */
  deadline?: ModelDeadline;
}

export function backoffDelay(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
}

function withAttempts(error: ModelProviderError, attempts: number): ModelProviderError {
  if (attempts <= 1) return error;
  return new ModelProviderError(error.failure, `${error.message}, after ${attempts} attempts`, {
    model: error.model,
    hint: error.hint,
    ...(error.status !== undefined && { status: error.status }),
    cause: error.cause,
  });
}

/** Runs `fn` with a signal that aborts when `outer` does or after `ms`; says whether the deadline fired. */
async function withDeadline<T>(
  ms: number,
  outer: AbortSignal | undefined,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T } | { error: unknown; timedOut: boolean }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`attempt deadline of ${ms} ms passed`));
  }, ms);
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forward, { once: true });
  try {
    return { value: await fn(controller.signal) };
  } catch (error) {
    return { error, timedOut };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}

export async function callWithRetries<T>(run: RetryRun<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    run.signal?.throwIfAborted();
    const outcome = await withDeadline(run.timeoutMs, run.signal, (signal) => run.attempt(attempt, signal));
    if ('value' in outcome) return outcome.value;
    if (run.signal?.aborted) throw run.signal.reason;
    const { error, retryable, retryAfterMs } = run.classify(outcome.error, outcome.timedOut);
    if (!retryable || attempt > run.policy.maxRetries) throw withAttempts(error, attempt);
    if (retryAfterMs !== undefined && retryAfterMs > run.policy.maxRetryAfterMs) {
      throw new ModelProviderError(
        error.failure,
        `${error.message}; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than the ${Math.ceil(run.policy.maxRetryAfterMs / 1000)} s this server waits`,
        { model: error.model, hint: error.hint, ...(error.status !== undefined && { status: error.status }) },
      );
    }
    const wait = retryAfterMs ?? backoffDelay(run.policy, attempt);
    if (run.deadline !== undefined && wait >= run.deadline.leftMs()) {
      throw deadlineExceeded(error.model, run.deadline.totalMs, withAttempts(error, attempt));
    }
    run.logger.warn(
      `model ${displayModelName(run.model)}: ${error.failure}${error.status === undefined ? '' : ` (HTTP ${error.status})`}, retry ${attempt} of ${run.policy.maxRetries} in ${Math.round(wait)} ms`,
    );
    try {
      await run.policy.sleep(wait, run.signal);
    } catch (sleepError) {
      // An aborted sleep rejects with an AbortError; the caller's reason is what counts.
      if (run.signal?.aborted) throw run.signal.reason;
      throw sleepError;
    }
  }
}
