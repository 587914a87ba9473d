/** Shared inputs for the policy tests: a call position and a helper that captures a thrown HostError. */
import { isHostError, type HostError } from '../../../src/host/hostError.js';
import type { CallPosition } from '../../../src/host/types.js';

export function position(round = 1, principal?: string): CallPosition {
  return {
    server: { name: 'demo', key: 'http://127.0.0.1:8080/mcp' },
    tool: 'summarize_repo',
    round,
    ...(principal !== undefined && { principal }),
  };
}

/** The HostError `fn` throws; fails the test when it returns or throws anything else. */
export function hostErrorOf(fn: () => unknown): HostError {
  try {
    fn();
  } catch (error) {
    if (isHostError(error)) return error;
    throw error;
  }
  throw new Error('expected a HostError, nothing was thrown');
}

/** A valid sampling request's params; `extra` replaces or adds fields. */
export function samplingParams(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: 'pick the files' } }],
    maxTokens: 400,
    ...extra,
  };
}
