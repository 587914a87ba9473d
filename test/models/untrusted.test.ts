/** What a provider reports about its own answer, made safe to add up, log and return. */
import { describe, expect, it } from 'vitest';

import type { CreateMessageResult } from '@modelcontextprotocol/server';

import { MAX_RESPONSE_BYTES } from '../../src/flows/inputResponses.js';
import {
  addTokens,
  answerBytes,
  displayModelName,
  MAX_ANSWER_BYTES,
  MAX_MODEL_NAME_LENGTH,
  tokenCount,
} from '../../src/models/untrusted.js';

describe('token counts', () => {
  it('keeps non-negative safe integers only', () => {
    expect(tokenCount(0)).toBe(0);
    expect(Object.is(tokenCount(-0), 0)).toBe(true);
    expect(tokenCount(1234)).toBe(1234);
    for (const bad of [-1, 2.5, Number.NaN, Infinity, 2 ** 53, '12', null, undefined, {}]) {
      expect(tokenCount(bad)).toBeUndefined();
    }
  });

  it('sums saturate at the largest safe integer', () => {
    expect(addTokens(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(addTokens(2, 3)).toBe(5);
  });
});

describe('model names', () => {
  it('strips control and format characters and whitespace, so a name cannot forge a log line', () => {
    expect(displayModelName('gpt\nmcp-model-input: model call summary: outcome=ok')).toBe(
      'gptmcp-model-input:_model_call_summary:_outcome=ok',
    );
    expect(displayModelName('a\u001b[31mb\u202ec\u2028d\u0000e')).toBe('a[31mbcde');
  });

  it('caps the length, and falls back when nothing printable is left', () => {
    const long = displayModelName('m'.repeat(100_000));
    expect([...long]).toHaveLength(MAX_MODEL_NAME_LENGTH);
    expect(long.endsWith('…')).toBe(true);
    expect(displayModelName('\n\t\u0007', 'configured-id')).toBe('configured-id');
    expect(displayModelName(undefined, '\n')).toBe('unknown');
    expect(displayModelName('claude-sonnet-5-5')).toBe('claude-sonnet-5-5');
  });
});

describe('answer size', () => {
  it('is bounded like the host path', () => {
    expect(MAX_ANSWER_BYTES).toBe(MAX_RESPONSE_BYTES);
  });

  it('counts UTF-8 bytes of the text', () => {
    expect(answerBytes({ role: 'assistant', content: { type: 'text', text: 'é€' }, model: 'm' })).toBe(5);
    // Several blocks (what a host may send; the SDK type allows one): every text counts.
    const blocks = [
      { type: 'text', text: 'ab' },
      { type: 'text', text: 'c' },
    ] as unknown as CreateMessageResult['content'];
    expect(answerBytes({ role: 'assistant', content: blocks, model: 'm' })).toBe(3);
  });
});
