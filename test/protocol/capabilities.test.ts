/**
 * The one rule for which capability an embedded request needs, and its three users: the server
 * (-32021 before it asks), the host (refuses before it answers) and the audit (fails a server).
 */
import { inputRequired, type InputRequest, type ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import type { ProbeChannel } from '../../src/audit/channel.js';
import { inspectInputRequired } from '../../src/audit/checks/inputRequests.js';
import { createAuditContext } from '../../src/audit/context.js';
import { askForInput, type SealedRound } from '../../src/flows/inputRounds.js';
import { isHostError } from '../../src/host/hostError.js';
import { checkCapabilities } from '../../src/host/policies/capabilityGate.js';
import { silentLogger } from '../../src/logger.js';
import { isInputRequestMethod, missingCapability } from '../../src/protocol/capabilities.js';
import { createEphemeralKeyRing, createStateCodec } from '../../src/state/index.js';

const text = (value: string) => ({ type: 'text', text: value });
const toolLoop = {
  messages: [
    { role: 'user', content: text('look around') },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: [text('a.ts')] }] },
  ],
  maxTokens: 50,
};
const plain = { messages: [{ role: 'user', content: text('hi') }], maxTokens: 5 };

/** Each case: method, params, declared capabilities, the capability that is missing (or none). */
const CASES: Array<[string, string, unknown, unknown, string | undefined]> = [
  ['plain sampling, declared', 'sampling/createMessage', plain, { sampling: {} }, undefined],
  ['plain sampling, undeclared', 'sampling/createMessage', plain, {}, 'sampling'],
  [
    'tools without sampling.tools',
    'sampling/createMessage',
    { ...plain, tools: [] },
    { sampling: {} },
    'sampling.tools',
  ],
  [
    'toolChoice without sampling.tools',
    'sampling/createMessage',
    { ...plain, toolChoice: { mode: 'auto' } },
    { sampling: {} },
    'sampling.tools',
  ],
  ['tool blocks without sampling.tools', 'sampling/createMessage', toolLoop, { sampling: {} }, 'sampling.tools'],
  ['tool blocks with sampling.tools', 'sampling/createMessage', toolLoop, { sampling: { tools: {} } }, undefined],
  ['form elicitation, bare declaration', 'elicitation/create', { message: 'm' }, { elicitation: {} }, undefined],
  [
    'form elicitation, url only',
    'elicitation/create',
    { message: 'm' },
    { elicitation: { url: {} } },
    'elicitation.form',
  ],
  [
    'url elicitation, bare declaration',
    'elicitation/create',
    { mode: 'url', url: 'https://x' },
    { elicitation: {} },
    'elicitation.url',
  ],
  [
    'url elicitation, declared',
    'elicitation/create',
    { mode: 'url', url: 'https://x' },
    { elicitation: { url: {} } },
    undefined,
  ],
  ['elicitation undeclared', 'elicitation/create', { message: 'm' }, { sampling: {} }, 'elicitation'],
  ['roots undeclared', 'roots/list', {}, { roots: null }, 'roots'],
  ['roots declared', 'roots/list', {}, { roots: {} }, undefined],
];

describe('missingCapability (protocol/capabilities.ts)', () => {
  it.each(CASES)('%s', (_name, method, params, declared, expected) => {
    expect(missingCapability(method, params, declared)?.capability).toBe(expected);
  });

  it('names the required capability object as the -32021 data carries it', () => {
    expect(missingCapability('sampling/createMessage', toolLoop, { sampling: {} })?.required).toEqual({
      sampling: { tools: {} },
    });
    expect(missingCapability('elicitation/create', { mode: 'url' }, {})?.required).toEqual({ elicitation: {} });
  });

  it('knows the input request methods and nothing else', () => {
    expect(isInputRequestMethod('roots/list')).toBe(true);
    expect(isInputRequestMethod('tools/call')).toBe(false);
  });
});

describe('every side applies the same rule', () => {
  const codec = createStateCodec<SealedRound<unknown>>({ keyRing: createEphemeralKeyRing() });
  const target = { method: 'tools/call' as const, name: 'demo', args: {} };
  const cases = CASES;

  it.each(cases)('the server: %s', (_name, method, params, declared, expected) => {
    const request = { method, params } as unknown as InputRequest;
    const ask = () =>
      askForInput(
        { principal: 'p', clientCapabilities: declared as never, requestState: undefined, inputResponses: undefined },
        target,
        { codec, logger: silentLogger },
        {},
        0,
        { k: request },
      );
    if (expected === undefined) {
      expect(ask().kind).toBe('asked');
      return;
    }
    let error: ProtocolError | undefined;
    try {
      ask();
    } catch (caught) {
      error = caught as ProtocolError;
    }
    expect(error?.code).toBe(-32021);
    expect(error?.message).toContain(expected);
    expect((error?.data as { requiredCapabilities?: unknown }).requiredCapabilities).toEqual(
      missingCapability(method, params, declared)?.required,
    );
  });

  it.each(cases)('the host: %s', (_name, method, params, declared, expected) => {
    const check = () =>
      checkCapabilities([{ key: 'k', method, params }], declared as never, { round: 1, tool: 'demo' } as never);
    if (expected === undefined) {
      expect(check).not.toThrow();
      return;
    }
    try {
      check();
      expect.unreachable('the host should refuse');
    } catch (error) {
      expect(isHostError(error) && error.code).toBe('capability_undeclared');
      expect((error as Error).message).toContain(`the ${expected} capability`);
    }
  });

  it.each(cases)('the audit: %s', (_name, method, params, declared, expected) => {
    const channel = { send: () => Promise.reject(new Error('unused')) } as unknown as ProbeChannel;
    const ctx = createAuditContext(channel, { name: 'test', version: '0' });
    inspectInputRequired(
      ctx,
      { resultType: 'input_required', inputRequests: { k: { method, params } } },
      declared as never,
      1,
      false,
    );
    const rule = ctx.ledger().find((entry) => entry.id === 'mrtr.declared_capabilities_only');
    if (expected === undefined) expect(rule?.status).not.toBe('fail');
    else expect(rule?.detail).toContain(`without the ${expected} capability`);
  });

  it('the server still builds a real embedded request through the SDK helper', () => {
    const request = inputRequired.createMessage(plain as never);
    expect(missingCapability(request.method, request.params, { sampling: {} })).toBeUndefined();
  });
});
