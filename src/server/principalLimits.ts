/**
 * Per-principal limits across a fleet: tool calls per minute (`--rate-limit`) and server-owned model
 * tokens per day (`--principal-token-budget`), counted in the shared store so that every instance
 * sees the same totals. Only new calls are counted: the retries of a call in progress (MRTR rounds,
 * bounded by the round cap and single-use state) are part of the call and always finish. Tokens are
 * charged as server-owned models report them; a call that starts under the budget may end over it
 * (by at most its per-call model budget), and the principal's next call is refused.
 */
import type { Logger } from '../logger.js';
import type { PointLimiter, SharedStore } from '../state/stores/index.js';

export type LimitName = 'rate' | 'tokens';

export type Admission =
  { admitted: true } | { admitted: false; limit: LimitName; retryAfterSeconds: number; message: string };

export interface PrincipalLimits {
  /** Whether `principal` may start a tool call now; throws `StoreUnavailableError` when the store is away. */
  admitCall(principal: string): Promise<Admission>;
  /** Adds tokens a server-owned model spent for `principal` (a store failure is logged, not thrown). */
  chargeTokens(principal: string, tokens: number): void;
}

export interface PrincipalLimitsOptions {
  store: SharedStore;
  logger: Logger;
  /** Tool calls per principal per minute. */
  callsPerMinute?: number;
  /** Server-owned model tokens (input + output) per principal per day. */
  tokensPerDay?: number;
}

const MINUTE = 60;
const DAY = 24 * 60 * 60;

/** The configured limits, or undefined when neither is set. */
export function createPrincipalLimits(options: PrincipalLimitsOptions): PrincipalLimits | undefined {
  const { store, logger, callsPerMinute, tokensPerDay } = options;
  if (callsPerMinute === undefined && tokensPerDay === undefined) return undefined;
  const calls: PointLimiter | undefined =
    callsPerMinute === undefined
      ? undefined
      : store.limiter({ name: 'calls', points: callsPerMinute, durationSeconds: MINUTE });
  const tokens: PointLimiter | undefined =
    tokensPerDay === undefined
      ? undefined
      : store.limiter({ name: 'tokens', points: tokensPerDay, durationSeconds: DAY });
  const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

  return {
    async admitCall(principal) {
      if (tokens !== undefined) {
        const left = await tokens.check(principal);
        if (!left.allowed) {
          const retryAfterSeconds = seconds(left.retryAfterMs);
          return {
            admitted: false,
            limit: 'tokens',
            retryAfterSeconds,
            message: `Token budget exhausted: this principal has used its ${tokensPerDay} server-model tokens for the day. Retry after ${retryAfterSeconds} s.`,
          };
        }
      }
      if (calls !== undefined) {
        const taken = await calls.take(principal);
        if (!taken.allowed) {
          const retryAfterSeconds = seconds(taken.retryAfterMs);
          return {
            admitted: false,
            limit: 'rate',
            retryAfterSeconds,
            message: `Rate limit: more than ${callsPerMinute} tool calls per minute for this principal. Retry after ${retryAfterSeconds} s.`,
          };
        }
      }
      return { admitted: true };
    },
    chargeTokens(principal, spent) {
      if (tokens === undefined || spent <= 0) return;
      tokens.charge(principal, spent).catch((error: unknown) => {
        logger.warn(
          `limits: could not charge ${spent} tokens: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    },
  };
}
