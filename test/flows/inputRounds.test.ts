/** The MRTR round machinery shared by the flow engine, the conformance fixture and library users. */
import type { ProtocolError } from '@modelcontextprotocol/server';
import { inputRequired, type InputRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import {
  askForInput,
  askWithoutState,
  openRound,
  type RoundRequest,
  type SealedRound,
} from '../../src/flows/inputRounds.js';
import { REJECTED_STATE_MESSAGE } from '../../src/flows/roundErrors.js';
import { silentLogger } from '../../src/logger.js';
import { createEphemeralKeyRing, createStateCodec } from '../../src/state/index.js';

const options = {
  codec: createStateCodec<SealedRound<unknown>>({ keyRing: createEphemeralKeyRing() }),
  logger: silentLogger,
  maxRounds: 2,
};
const target = { method: 'tools/call' as const, name: 'demo', args: { a: 1 } };
const ask = (message: string): InputRequest =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties: {} } } as never);
const sample: InputRequest = inputRequired.createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 5,
});
const request = (extra: Partial<RoundRequest> = {}): RoundRequest => ({
  principal: 'p',
  clientCapabilities: { elicitation: {}, sampling: {} },
  requestState: undefined,
  inputResponses: undefined,
  ...extra,
});
const errorCode = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as ProtocolError).code;
  }
  return undefined;
};

describe('input rounds', () => {
  it('seals state and hands back only the awaited responses', () => {
    const asked = askForInput(request(), target, options, { step: 1 }, 0, { name: ask('Name?') });
    if (asked.kind !== 'asked') throw new Error('expected asked');
    expect(Object.keys(asked.result.inputRequests ?? {})).toEqual(['name']);
    const opened = openRound(
      request({ requestState: asked.result.requestState, inputResponses: { name: { action: 'accept' }, other: {} } }),
      target,
      options,
      () => ({ step: 0 }),
    );
    expect(opened).toEqual({ state: { step: 1 }, round: 1, responses: { name: { action: 'accept' } }, missing: [] });
    const missing = openRound(request({ requestState: asked.result.requestState }), target, options, () => ({}));
    expect(missing.missing).toEqual(['name']);
  });

  it('refuses state bound to other arguments or another principal with the fixed message', () => {
    const asked = askForInput(request(), target, options, {}, 0, { name: ask('Name?') });
    if (asked.kind !== 'asked') throw new Error('expected asked');
    for (const [req, tgt] of [
      [request({ requestState: asked.result.requestState }), { ...target, args: { a: 2 } }],
      [request({ requestState: asked.result.requestState, principal: 'q' }), target],
      [request({ requestState: asked.result.requestState }), { ...target, method: 'prompts/get' as const }],
    ] as const) {
      expect(() => openRound(req, tgt, options, () => ({}))).toThrow(REJECTED_STATE_MESSAGE);
    }
  });

  it('checks each embedded request against the capabilities this request declared', () => {
    expect(
      errorCode(() =>
        askForInput(request({ clientCapabilities: { sampling: {} } }), target, options, {}, 0, { n: ask('?') }),
      ),
    ).toBe(-32021);
    expect(errorCode(() => askWithoutState(request({ clientCapabilities: {} }), { s: sample }))).toBe(-32021);
    const withTools = inputRequired.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 5,
      tools: [{ name: 't', inputSchema: { type: 'object' } }],
    } as never);
    expect(errorCode(() => askWithoutState(request(), { s: withTools }))).toBe(-32021);
    expect(
      errorCode(() => askWithoutState(request({ clientCapabilities: { sampling: { tools: {} } } }), { s: withTools })),
    ).toBeUndefined();
  });

  it('stops at the round cap with -32602', () => {
    expect(errorCode(() => askForInput(request(), target, options, {}, 2, { n: ask('?') }))).toBe(-32602);
  });

  it('asks without state when nothing needs carrying', () => {
    const result = askWithoutState(request(), { n: ask('?') });
    expect(result.resultType).toBe('input_required');
    expect(result.requestState).toBeUndefined();
  });

  it('inputResponses without requestState: refused where state is always minted, a fresh start for stateless rounds', () => {
    const answered = request({ inputResponses: { name: { action: 'accept', content: { n: 'x' } } } });
    // A handler that always seals state (the flow engine): the answer cannot belong to anything it asked.
    let message = '';
    try {
      openRound(answered, target, { ...options, requireState: true }, () => ({}));
    } catch (error) {
      message = (error as ProtocolError).message;
      expect((error as ProtocolError).code).toBe(-32602);
    }
    expect(message).toContain('demo: inputResponses without requestState');
    // No responses at all is an ordinary first call.
    expect(openRound(request(), target, { ...options, requireState: true }, () => ({ s: 0 })).state).toEqual({ s: 0 });
    // A handler that runs its rounds without state (askWithoutState) reads the retry's answers itself.
    expect(openRound(answered, target, options, () => ({ s: 0 }))).toEqual({
      state: { s: 0 },
      round: 0,
      responses: {},
      missing: [],
    });
  });
});
