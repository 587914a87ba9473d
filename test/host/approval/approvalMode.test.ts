/** `--approve` parsing and the two fixed modes. */
import { describe, expect, it } from 'vitest';

import { isModelInputError } from '../../../src/errors.js';
import { createApprover, DENY_MODE_REASON, parseApprovalMode } from '../../../src/host/approval/index.js';
import { ROUND } from './rounds.js';

function usageError(value: string): string {
  try {
    parseApprovalMode(value);
  } catch (error) {
    if (isModelInputError(error) && error.code === 'usage') return error.message;
    throw error;
  }
  throw new Error(`${value} was accepted`);
}

describe('parseApprovalMode', () => {
  it('reads the three plain modes and rules:FILE', () => {
    expect(parseApprovalMode('prompt')).toEqual({ kind: 'prompt' });
    expect(parseApprovalMode('auto')).toEqual({ kind: 'auto' });
    expect(parseApprovalMode('deny')).toEqual({ kind: 'deny' });
    expect(parseApprovalMode('rules:./approve.yaml')).toEqual({ kind: 'rules', file: './approve.yaml' });
    expect(parseApprovalMode('rules:C:\\x:y.json')).toEqual({ kind: 'rules', file: 'C:\\x:y.json' });
  });

  it('refuses anything else with a usage error naming the accepted values', () => {
    for (const value of ['', 'Auto', 'yes', 'rules', 'rules:', 'rules:  ', 'prompt ', 'allow']) {
      expect(usageError(value)).toMatch(/--approve/);
    }
    expect(usageError('yes')).toContain('prompt, auto, deny or rules:FILE');
    expect(usageError('rules:')).toContain('needs a file name');
  });
});

describe('createApprover fixed modes', () => {
  it('auto approves every round and deny refuses it with the mode as the reason', async () => {
    const auto = await createApprover({ kind: 'auto' });
    const deny = await createApprover({ kind: 'deny' });
    expect(await auto.review(ROUND)).toEqual({ kind: 'approve' });
    expect(await deny.review(ROUND)).toEqual({ kind: 'deny', reason: DENY_MODE_REASON });
    expect(DENY_MODE_REASON).toBe('approval mode is deny');
  });
});
