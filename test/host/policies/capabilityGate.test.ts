/** The capability gate: only declared, supported methods pass; the whole round is checked at once. */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import { checkCapabilities } from '../../../src/host/policies/capabilityGate.js';
import type { RawInputRequest } from '../../../src/host/types.js';
import { hostErrorOf, position, samplingParams } from './positions.js';

const sample = (key: string, params: unknown = samplingParams()): RawInputRequest => ({
  key,
  method: 'sampling/createMessage',
  params,
});
const elicit = (key: string, mode?: string): RawInputRequest => ({
  key,
  method: 'elicitation/create',
  params: {
    ...(mode !== undefined && { mode }),
    message: 'Name?',
    requestedSchema: { type: 'object', properties: {} },
  },
});
const roots: RawInputRequest = { key: 'roots', method: 'roots/list', params: {} };
const ALL: ClientCapabilities = { sampling: {}, elicitation: {}, roots: {} };

function refusal(requests: RawInputRequest[], declared: ClientCapabilities, round = 1) {
  return hostErrorOf(() => checkCapabilities(requests, declared, position(round)));
}

describe('checkCapabilities', () => {
  it('passes a round whose every method is supported and declared', () => {
    expect(() => checkCapabilities([sample('a'), elicit('b'), roots], ALL, position())).not.toThrow();
  });

  it('refuses a tools/call embedded to make the host call a tool, naming the key and round', () => {
    const error = refusal([{ key: 'sneaky', method: 'tools/call', params: { name: 'rm', arguments: {} } }], ALL, 3);
    expect(error.code).toBe('request_unsupported');
    expect(error.detail).toEqual({ key: 'sneaky', round: 3 });
    expect(error.message).toContain('"tools/call"');
  });

  it('checks every request of the round: a bad one after good ones still stops the round', () => {
    const error = refusal([sample('first'), roots, { key: 'last', method: 'ping', params: {} }], ALL);
    expect(error.code).toBe('request_unsupported');
    expect(error.detail.key).toBe('last');
  });

  it('refuses sampling when sampling was not declared', () => {
    const error = refusal([sample('pick')], { elicitation: {} });
    expect(error.code).toBe('capability_undeclared');
    expect(error.message).toContain('the sampling capability');
    expect(error.detail.key).toBe('pick');
  });

  it('refuses tools or toolChoice without sampling.tools, and allows them with it', () => {
    const tools = [{ name: 't', inputSchema: { type: 'object' } }];
    for (const extra of [{ tools }, { toolChoice: { mode: 'auto' } }]) {
      const error = refusal([sample('pick', samplingParams(extra))], { sampling: {} });
      expect(error.code).toBe('capability_undeclared');
      expect(error.message).toContain('sampling.tools');
    }
    expect(() =>
      checkCapabilities([sample('pick', samplingParams({ tools }))], { sampling: { tools: {} } }, position()),
    ).not.toThrow();
  });

  it('refuses messages with tool_use or tool_result blocks without sampling.tools (a tool loop not agreed to)', () => {
    const loop = samplingParams({
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: { cmd: 'ls' } }] },
        { role: 'user', content: { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'x' }] } },
      ],
    });
    const error = refusal([sample('loop', loop)], { sampling: {} });
    expect(error.code).toBe('capability_undeclared');
    expect(error.message).toContain('sampling.tools');
    expect(() => checkCapabilities([sample('loop', loop)], { sampling: { tools: {} } }, position())).not.toThrow();
  });

  it('reads elicitation: {} as form only', () => {
    expect(() => checkCapabilities([elicit('a'), elicit('b', 'form')], { elicitation: {} }, position())).not.toThrow();
    const error = refusal([elicit('u', 'url')], { elicitation: {} });
    expect(error.code).toBe('capability_undeclared');
    expect(error.message).toContain('elicitation.url');
  });

  it('matches each elicitation mode to its own declaration', () => {
    expect(refusal([elicit('u', 'url')], { elicitation: { form: {} } }).message).toContain('elicitation.url');
    expect(refusal([elicit('f')], { elicitation: { url: {} } }).message).toContain('elicitation.form');
    expect(() => checkCapabilities([elicit('u', 'url')], { elicitation: { url: {} } }, position())).not.toThrow();
  });

  it('refuses elicitation and roots when not declared at all', () => {
    expect(refusal([elicit('e')], { sampling: {} }).message).toContain('the elicitation capability');
    const error = refusal([roots], { sampling: {} });
    expect(error.code).toBe('capability_undeclared');
    expect(error.message).toContain('the roots capability');
  });
});
