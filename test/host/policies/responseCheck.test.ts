/** The host model's answer before it goes back: shape, size, and only the wire fields. */
import { describe, expect, it } from 'vitest';

import { DEFAULT_REQUEST_LIMITS } from '../../../src/host/policies/limits.js';
import { checkModelResponse, offeredTools, responseBytes } from '../../../src/host/policies/responseCheck.js';
import { hostErrorOf, position } from './positions.js';

const SECRET = 'private answer text';
const answer = (extra: Record<string, unknown> = {}) => ({
  role: 'assistant',
  content: { type: 'text', text: SECRET },
  model: 'claude-test',
  stopReason: 'endTurn',
  ...extra,
});
const check = (result: unknown, limits = DEFAULT_REQUEST_LIMITS) =>
  checkModelResponse('summary', result, limits, position(3));
const refusal = (result: unknown, limits = DEFAULT_REQUEST_LIMITS) => hostErrorOf(() => check(result, limits));

describe('checkModelResponse', () => {
  it('returns the answer with only role, content, model and stopReason', () => {
    const raw = answer({ usage: { inputTokens: 5 }, _meta: { provider: 'x' }, id: 'msg_1' });
    expect(check(raw)).toEqual({
      role: 'assistant',
      content: { type: 'text', text: SECRET },
      model: 'claude-test',
      stopReason: 'endTurn',
    });
    expect(check(answer({ stopReason: undefined }))).not.toHaveProperty('stopReason');
  });

  it('refuses answers of the wrong shape, naming the key and round', () => {
    const cases: Array<[unknown, string]> = [
      ['text', 'must be an object'],
      [answer({ role: 'user' }), 'role "assistant"'],
      [answer({ model: undefined }), 'must name its model'],
      [answer({ stopReason: 3 }), 'stopReason must be a string'],
      [answer({ content: { type: 'text' } }), 'content.text'],
      [answer({ content: { type: 'video', url: 'x' } }), 'content.type: must be a text, image'],
    ];
    for (const [result, problem] of cases) {
      const error = refusal(result);
      expect(error.code).toBe('response_invalid');
      expect(error.detail).toEqual({ key: 'summary', round: 3 });
      expect(error.message).toContain(problem);
    }
  });

  it('takes one text, image or audio block unless tools were offered', () => {
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'tool_use', id: 't', name: 'search', input: {} },
    ];
    expect(refusal(answer({ content: blocks })).message).toContain('the request offered no tools');
    expect(refusal(answer({ content: blocks[1] })).message).toContain('the request offered no tools');
    const image = { type: 'image', data: 'aGk=', mimeType: 'image/png' };
    expect(check(answer({ content: image })).content).toEqual(image);
    const withTools = checkModelResponse('k', answer({ content: blocks }), DEFAULT_REQUEST_LIMITS, position(), {
      toolsOffered: true,
    });
    expect(withTools.content).toEqual(blocks);
  });

  it('to a request that offered tools: only those tools, unique ids, none under toolChoice none', () => {
    const offered = offeredTools({
      tools: [{ name: 'read_file' }, { name: 'list_directory' }],
      toolChoice: { mode: 'auto' },
    });
    const withOffered = (content: unknown, mode?: 'none') =>
      checkModelResponse('explore', answer({ content, stopReason: 'toolUse' }), DEFAULT_REQUEST_LIMITS, position(4), {
        offered: mode === undefined ? offered! : { ...offered!, mode },
      });
    const calls = [
      { type: 'text', text: SECRET },
      { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'README.md' } },
      { type: 'tool_use', id: 'b', name: 'list_directory', input: { path: 'src' } },
    ];
    expect(withOffered(calls).content).toEqual(calls);
    expect(withOffered({ type: 'text', text: 'done' }, 'none').content).toEqual({ type: 'text', text: 'done' });
    const cases: Array<[unknown, 'none' | undefined, string]> = [
      [[calls[1], { ...calls[2], id: 'a' }], undefined, 'uses tool use id "a" twice'],
      [[{ ...calls[1], name: 'shell' }], undefined, 'calls tool "shell", which the request did not offer'],
      [[calls[1]], 'none', 'uses a tool, but the request said toolChoice "none"'],
    ];
    for (const [content, mode, problem] of cases) {
      const error = hostErrorOf(() => withOffered(content, mode));
      expect(error.code).toBe('response_invalid');
      expect(error.detail).toEqual({ key: 'explore', round: 4 });
      expect(error.message).toBe(`input "explore": the model answer ${problem}`);
    }
    expect(offeredTools({})).toBeUndefined();
    expect(offeredTools({ toolChoice: {} })).toEqual({ names: [], mode: 'auto' });
  });

  it('refuses an answer over maxResponseBytes by size, without quoting it', () => {
    const limits = { ...DEFAULT_REQUEST_LIMITS, maxResponseBytes: 1000 };
    const big = answer({ content: { type: 'text', text: `${SECRET}${'é'.repeat(500)}` } });
    const error = refusal(big, limits);
    expect(error.code).toBe('response_invalid');
    expect(error.message).toBe(`input "summary": the model answer is ${responseBytes(big)} bytes, the limit is 1000`);
    expect(error.message).not.toContain(SECRET);
  });
});

describe('responseBytes', () => {
  it('counts the UTF-8 bytes of the JSON, and Infinity for what is not JSON', () => {
    const result = answer();
    expect(responseBytes(result)).toBe(Buffer.byteLength(JSON.stringify(result), 'utf8'));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(responseBytes(cyclic)).toBe(Infinity);
    expect(refusal(cyclic).message).toContain('not JSON');
  });
});
