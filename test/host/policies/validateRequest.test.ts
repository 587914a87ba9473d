/** Validation of sampling requests: limits checked by size before shape, fields cleaned, clear refusals. */
import { describe, expect, it } from 'vitest';

import { DEFAULT_REQUEST_LIMITS } from '../../../src/host/policies/limits.js';
import {
  estimateTokens,
  samplingRequestBytes,
  validateInputRequest,
} from '../../../src/host/policies/validateRequest.js';
import { hostErrorOf, position, samplingParams } from './positions.js';

const SECRET = 'the launch codes are 0000';
const validate = (params: unknown, limits = DEFAULT_REQUEST_LIMITS) =>
  validateInputRequest({ key: 'pick_files', method: 'sampling/createMessage', params }, limits, position(2));
const refusal = (params: unknown, limits = DEFAULT_REQUEST_LIMITS) => hostErrorOf(() => validate(params, limits));
const text = (value: string) => ({ type: 'text', text: value });

describe('validateInputRequest: sampling', () => {
  it('returns a valid request with unknown fields dropped and the content shape kept', () => {
    const valid = validate({
      messages: [
        { role: 'user', content: { ...text('a'), evil: true }, _meta: { x: 1 } },
        { role: 'assistant', content: [text('b')] },
      ],
      maxTokens: 400,
      systemPrompt: 'be brief',
      includeContext: 'none',
      modelPreferences: { hints: [{ name: 'haiku' }], costPriority: 0.8 },
      temperature: 0.2,
      stopSequences: ['END'],
      metadata: { trace: 'x' },
      _meta: { progressToken: 1 },
      unknownField: 'dropped',
    });
    expect(valid).toEqual({
      key: 'pick_files',
      method: 'sampling/createMessage',
      params: {
        messages: [
          { role: 'user', content: text('a') },
          { role: 'assistant', content: [text('b')] },
        ],
        maxTokens: 400,
        systemPrompt: 'be brief',
        includeContext: 'none',
        modelPreferences: { hints: [{ name: 'haiku' }], costPriority: 0.8 },
        temperature: 0.2,
        stopSequences: ['END'],
        metadata: { trace: 'x' },
      },
    });
  });

  it('accepts image, audio, tool_use and tool_result blocks, in a loop that pairs them', () => {
    const asked = [
      { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      { type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' },
    ];
    const used = [text('searching'), { type: 'tool_use', id: 't1', name: 'search', input: { q: 'x' } }];
    const results = [
      {
        type: 'tool_result',
        toolUseId: 't1',
        content: [text('found'), { type: 'resource_link', uri: 'file:///a', name: 'a' }],
      },
    ];
    const messages = [
      { role: 'user', content: asked },
      { role: 'assistant', content: used },
      { role: 'user', content: results },
    ];
    const valid = validate(samplingParams({ messages }));
    expect(valid.method === 'sampling/createMessage' && valid.params.messages.map((m) => m.content)).toEqual([
      asked,
      used,
      results,
    ]);
  });

  it('refuses a tool loop whose tool_use and tool_result blocks do not pair (toolPairing.ts)', () => {
    const use = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: { path: SECRET } });
    const result = (id: string) => ({ type: 'tool_result', toolUseId: id, content: [text(SECRET)] });
    const error = refusal(
      samplingParams({
        messages: [
          { role: 'user', content: text('go') },
          { role: 'assistant', content: [use('a'), use('b')] },
          { role: 'user', content: [result('a')] },
        ],
      }),
    );
    expect(error.code).toBe('request_invalid');
    expect(error.message).toBe('input "pick_files": messages[2] leaves tool use "b" of messages[1] without a result');
    expect(error.message).not.toContain(SECRET);
  });

  it('requires maxTokens as a positive integer within the limit, saying what was asked', () => {
    for (const maxTokens of [undefined, 0, -5, 1.5, '400']) {
      const error = refusal(samplingParams({ maxTokens }));
      expect(error.code).toBe('request_invalid');
      expect(error.message).toContain('maxTokens is required and must be a positive integer');
    }
    const error = refusal(samplingParams({ maxTokens: 1_000_000 }));
    expect(error.code).toBe('request_invalid');
    expect(error.message).toBe('input "pick_files": asks maxTokens 1000000, the limit is 4096');
    expect(error.detail).toEqual({ key: 'pick_files', round: 2 });
    expect(() => validate(samplingParams({ maxTokens: 4096 }))).not.toThrow();
  });

  it('refuses includeContext other than "none" as covert_context', () => {
    for (const includeContext of ['thisServer', 'allServers', 'everything']) {
      const error = refusal(samplingParams({ includeContext }));
      expect(error.code).toBe('covert_context');
      expect(error.detail.key).toBe('pick_files');
    }
  });

  it('refuses missing, empty and too many messages', () => {
    expect(refusal(samplingParams({ messages: undefined })).message).toContain('messages must be a non-empty array');
    expect(refusal(samplingParams({ messages: [] })).code).toBe('request_invalid');
    const many = Array.from({ length: 65 }, () => ({ role: 'user', content: text('x') }));
    expect(refusal(samplingParams({ messages: many })).message).toContain('has 65 messages, the limit is 64');
  });

  it('refuses malformed messages and blocks, naming where', () => {
    const cases: Array<[unknown, string]> = [
      [{ role: 'system', content: text('x') }, 'messages[0].role must be "user" or "assistant"'],
      [{ role: 'user', content: { type: 'html', html: '<b>' } }, 'messages[0].content.type: must be a text, image'],
      [{ role: 'user', content: { type: 'text', text: 7 } }, 'messages[0].content.text'],
      [
        { role: 'user', content: [text('ok'), { type: 'image', data: 'not base64!', mimeType: 'x' }] },
        'content[1].data',
      ],
      [{ role: 'user', content: { type: 'tool_use', name: 'x', input: {} } }, 'messages[0].content.id'],
      [
        { role: 'user', content: { type: 'tool_result', toolUseId: 't', content: [{ type: 'tool_use' }] } },
        'content.content[0]',
      ],
      [{ role: 'user', content: [] }, 'messages[0].content must not be empty'],
      ['just a string', 'messages[0] must be an object'],
    ];
    for (const [message, where] of cases) {
      const error = refusal(samplingParams({ messages: [message] }));
      expect(error.code).toBe('request_invalid');
      expect(error.message).toContain(where);
    }
  });

  it('limits the system prompt in UTF-8 bytes, not characters', () => {
    const limits = { ...DEFAULT_REQUEST_LIMITS, maxSystemPromptBytes: 10 };
    expect(() => validate(samplingParams({ systemPrompt: 'é'.repeat(5) }), limits)).not.toThrow();
    const error = refusal(samplingParams({ systemPrompt: 'é'.repeat(6) }), limits); // 6 characters, 12 bytes
    expect(error.message).toContain('systemPrompt is over 10 bytes');
    expect(refusal(samplingParams({ systemPrompt: 42 })).message).toContain('systemPrompt must be a string');
  });

  it('refuses a 10 MiB prompt by its size before looking at shapes, without quoting it', () => {
    const huge = `${SECRET} ${'x'.repeat(10 * 1024 * 1024)}`;
    const error = refusal(
      samplingParams({
        messages: [
          { role: 'user', content: text(huge) },
          { role: 'bogus', content: null },
        ],
      }),
    );
    expect(error.code).toBe('request_invalid');
    expect(error.message).toMatch(/messages and systemPrompt are \d+ bytes, the limit is 262144$/);
    expect(error.message).not.toContain(SECRET);
  });

  it('counts the system prompt into the message bytes', () => {
    const limits = { ...DEFAULT_REQUEST_LIMITS, maxMessageBytes: 200 };
    const params = samplingParams({ systemPrompt: 'y'.repeat(150) });
    expect(samplingRequestBytes(params)).toBeGreaterThan(200);
    expect(refusal(params, limits).message).toContain('the limit is 200');
  });

  it('refuses messages nested too deeply to serialize, instead of crashing', () => {
    let input: Record<string, unknown> = {};
    for (let depth = 0; depth < 200_000; depth++) input = { next: input };
    const content = { type: 'tool_use', id: 't', name: 'n', input };
    const error = refusal(samplingParams({ messages: [{ role: 'user', content }] }));
    expect(error.code).toBe('request_invalid');
    expect(error.message).toContain('not plain JSON');
  });

  it('bounds tools, metadata and the other fields too', () => {
    const limits = { ...DEFAULT_REQUEST_LIMITS, maxMessageBytes: 1000 };
    const error = refusal(samplingParams({ metadata: { blob: 'z'.repeat(2000) } }), limits);
    expect(error.message).toContain('tools, metadata and the other fields are over 1000 bytes');
  });

  it('checks model preferences and the optional fields', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ modelPreferences: { costPriority: 1.5 } }, 'modelPreferences.costPriority'],
      [{ modelPreferences: { speedPriority: -0.1 } }, 'modelPreferences.speedPriority'],
      [{ modelPreferences: { intelligencePriority: '1' } }, 'modelPreferences.intelligencePriority'],
      [{ modelPreferences: { hints: 'claude' } }, 'modelPreferences.hints'],
      [{ modelPreferences: { hints: [{ name: 3 }] } }, 'modelPreferences.hints[0].name'],
      [{ temperature: 'hot' }, 'temperature'],
      [{ stopSequences: [1] }, 'stopSequences[0]'],
      [{ metadata: ['x'] }, 'metadata'],
      [{ tools: [{ name: 't', inputSchema: { type: 'string' } }] }, 'tools[0].inputSchema.type'],
      [{ toolChoice: { mode: 'always' } }, 'toolChoice.mode'],
    ];
    for (const [extra, where] of cases) {
      const error = refusal(samplingParams(extra));
      expect(error.code).toBe('request_invalid');
      expect(error.message).toContain(where);
    }
    expect(refusal('params').message).toContain('params must be an object');
  });
});

describe('samplingRequestBytes and estimateTokens', () => {
  it('counts UTF-8 bytes of the messages JSON plus the system prompt', () => {
    const messages = [{ role: 'user', content: text('héllo "world"') }];
    expect(samplingRequestBytes({ messages, systemPrompt: 'ß' })).toBe(
      Buffer.byteLength(JSON.stringify(messages), 'utf8') + 2,
    );
    expect(samplingRequestBytes({ messages })).toBe(Buffer.byteLength(JSON.stringify(messages), 'utf8'));
  });

  it('estimates about four bytes a token, rounded up', () => {
    expect([0, 1, 4, 5, 4096].map(estimateTokens)).toEqual([0, 1, 1, 2, 1024]);
  });
});

describe('validateInputRequest: roots and unsupported methods', () => {
  const run = (method: string, params: unknown) =>
    validateInputRequest({ key: 'k', method, params }, DEFAULT_REQUEST_LIMITS, position());

  it('answers roots/list with empty params whether they were absent or an object', () => {
    expect(run('roots/list', undefined)).toEqual({ key: 'k', method: 'roots/list', params: {} });
    expect(run('roots/list', { _meta: {} })).toEqual({ key: 'k', method: 'roots/list', params: {} });
    expect(hostErrorOf(() => run('roots/list', 'all')).code).toBe('request_invalid');
  });

  it('refuses any other method as request_unsupported', () => {
    const error = hostErrorOf(() => run('tools/call', { name: 'x' }));
    expect(error.code).toBe('request_unsupported');
    expect(error.detail.key).toBe('k');
  });
});
