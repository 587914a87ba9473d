/**
 * Turns what an official provider SDK throws into a `ModelProviderError` with a hint, and says
 * whether the retry loop may try again (429, 408, 409, 5xx, timeouts, connection failures) and how long
 * the provider asked it to wait. Both SDKs share the same error family; each adapter passes its own
 * classes.
 */
import { ModelProviderError, type ModelProviderFailure } from '../providerError.js';

/** What the adapter knows about where it sends requests; only names, never values, reach messages. */
export interface ProviderContext {
  /** The model as configured, e.g. `openai:gpt-5.4-mini`. */
  model: string;
  /** The environment variable that holds the key, e.g. `OPENAI_API_KEY`. */
  keyEnv: string;
  /** The environment variable that holds the base URL, e.g. `OPENAI_BASE_URL`. */
  baseUrlEnv: string;
  timeoutMs: number;
}

type ErrorClass<T> = abstract new (...args: never[]) => T;

/** The error classes an official SDK exports (`openai` and `@anthropic-ai/sdk` have the same family). */
export interface SdkErrorClasses {
  APIError: ErrorClass<Error & { status: number | undefined; headers: Headers | undefined }>;
  APIConnectionError: ErrorClass<Error>;
  APIConnectionTimeoutError: ErrorClass<Error>;
  APIUserAbortError: ErrorClass<Error>;
}

export interface ClassifiedFailure {
  error: ModelProviderError;
  retryable: boolean;
  /** The provider's `Retry-After` (or `retry-after-ms`), in milliseconds. */
  retryAfterMs?: number;
}

// An HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, or the obsolete RFC 850 and asctime forms; all start with a day name.
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

function nonNegative(value: string | null | undefined): number | undefined {
  const text = value?.trim() ?? '';
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const number = Number.parseFloat(text);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * `retry-after-ms`, then `Retry-After` as non-negative seconds or an HTTP date, in milliseconds;
 * undefined when absent or unusable (a negative number, anything else), so that backoff applies.
 */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const millis = nonNegative(headers?.get('retry-after-ms'));
  if (millis !== undefined) return millis;
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  const seconds = nonNegative(value);
  if (seconds !== undefined) return Math.min(seconds * 1000, Number.MAX_SAFE_INTEGER);
  if (!HTTP_DATE.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function failure(
  context: ProviderContext,
  kind: ModelProviderFailure,
  what: string,
  hint: string,
  extra: { status?: number; cause?: unknown } = {},
): ModelProviderError {
  return new ModelProviderError(kind, `${context.model}: ${what}`, { model: context.model, hint, ...extra });
}

function fromStatus(status: number, headers: Headers | undefined, context: ProviderContext, cause: unknown) {
  const at = { status, cause };
  const reach = `check ${context.baseUrlEnv} points at the provider's API`;
  if (status === 401 || status === 403) {
    return {
      retryable: false,
      error: failure(
        context,
        'auth',
        `the provider refused the credentials (HTTP ${status})`,
        `set a valid ${context.keyEnv} for the server and restart it`,
        at,
      ),
    };
  }
  if (status === 404) {
    return {
      retryable: false,
      error: failure(
        context,
        'not_found',
        'the provider does not know this model or endpoint (HTTP 404)',
        `check the model name in --model and that ${reach}`,
        at,
      ),
    };
  }
  if (status === 429) {
    return {
      retryable: true,
      retryAfterMs: parseRetryAfter(headers),
      error: failure(
        context,
        'rate_limited',
        'the provider is rate-limiting requests (HTTP 429)',
        'try again later, or raise the rate limit or quota of the key',
        at,
      ),
    };
  }
  if (status === 408 || status === 409 || status >= 500) {
    return {
      retryable: true,
      retryAfterMs: parseRetryAfter(headers),
      error: failure(
        context,
        'unavailable',
        `the provider failed to answer (HTTP ${status})`,
        `try again later; if it persists, ${reach} and is healthy`,
        at,
      ),
    };
  }
  return {
    retryable: false,
    error: failure(
      context,
      'bad_request',
      `the provider rejected the request (HTTP ${status})`,
      'the model may not accept these parameters or this much input; try another model',
      at,
    ),
  };
}

/** Classifies one failed attempt. The caller handles its own abort signal before calling this. */
export function classifySdkError(
  error: unknown,
  sdk: SdkErrorClasses | undefined,
  context: ProviderContext,
  timedOut = false,
): ClassifiedFailure {
  if (error instanceof ModelProviderError) return { error, retryable: false };
  if (timedOut || (sdk !== undefined && error instanceof sdk.APIConnectionTimeoutError)) {
    return {
      retryable: true,
      error: failure(
        context,
        'timeout',
        `no answer within ${context.timeoutMs} ms`,
        'try again, or raise --model-timeout',
        {
          cause: error,
        },
      ),
    };
  }
  if (sdk === undefined) {
    return {
      retryable: false,
      error: failure(context, 'unavailable', 'the provider client could not be loaded', 'check the installation', {
        cause: error,
      }),
    };
  }
  if (error instanceof sdk.APIConnectionError) {
    return {
      retryable: true,
      error: failure(
        context,
        'unavailable',
        'could not reach the provider',
        `check ${context.baseUrlEnv} and that the provider is running`,
        { cause: error },
      ),
    };
  }
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    return fromStatus(error.status, error.headers, context, error);
  }
  if (error instanceof SyntaxError) {
    return {
      retryable: false,
      error: failure(
        context,
        'bad_response',
        'the provider answered with malformed JSON',
        `check ${context.baseUrlEnv} points at the provider's API`,
        { cause: error },
      ),
    };
  }
  return {
    retryable: false,
    error: failure(
      context,
      'unavailable',
      `the request failed (${error instanceof Error ? error.name : typeof error})`,
      'try again; if it persists, check the server log',
      { cause: error },
    ),
  };
}
