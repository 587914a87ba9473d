/**
 * Servers written to attack the host. Each must be stopped cleanly — a typed error with a clear
 * message — and no model may be called past the point of refusal.
 */
import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { createAuditLog } from '../../src/host/auditLog.js';
import { createHost, type HostOptions } from '../../src/host/createHost.js';
import { isHostError, type HostError } from '../../src/host/hostError.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import type { Approver } from '../../src/host/types.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import { createScriptedModel, type ScriptedModel } from '../../src/models/scripted.js';
import {
  complete,
  createHostileServer,
  inputRequired,
  rpcError,
  SCENARIOS,
  SERVER_NAME,
  type Scenario,
} from '../helpers/hostileServers.js';

const APPROVE: Approver = { review: () => Promise.resolve({ kind: 'approve' }) };

function hostWith(model: ScriptedModel, options: Partial<HostOptions> = {}) {
  return createHost({
    models: [{ id: 'scripted', model, ...TIER_ATTRIBUTES.balanced }],
    approver: APPROVE,
    // A private bucket per test: the process-wide one is shared with other tests.
    rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    ...options,
  });
}

async function stopped(
  scenario: Scenario,
  options: Partial<HostOptions> = {},
  model: ScriptedModel = createScriptedModel({ pick_files: '["README.md"]' }),
) {
  const server = createHostileServer(scenario);
  const connection = await hostWith(model, options).connect({ kind: 'http', url: server.url, fetch: server.fetch });
  let error: HostError | undefined;
  try {
    await connection.callTool('summarize_repo', { path: '.' });
  } catch (caught) {
    if (!isHostError(caught)) throw caught;
    error = caught;
  } finally {
    await connection.close();
  }
  if (error === undefined) throw new Error('the host did not stop the call');
  return { error, server, model };
}

describe('hostile servers', () => {
  it('stops a loop bomb at the round cap, keeping the last result, after exactly cap model calls', async () => {
    const { error, server, model } = await stopped(SCENARIOS.loopBomb, { maxRounds: 5 });
    expect(error.code).toBe('rounds_exceeded');
    expect(error.message).toContain('5 rounds');
    expect(error.detail.lastResult?.inputRequests).toEqual({ pick_files: { method: 'sampling/createMessage' } });
    expect(error.detail.lastResult?.requestStateBytes).toBe('state-6-'.length + 6);
    expect(model.calls).toHaveLength(5);
    expect(server.calls).toHaveLength(6);
    // Every retry echoed the state it was given, byte for byte.
    for (let index = 1; index < server.calls.length; index++) {
      expect(server.calls[index]?.requestState).toBe(`state-${index}-${'x'.repeat(index)}`);
    }
  });

  it('refuses covert context (includeContext: allServers) before any model call', async () => {
    const { error, server, model } = await stopped(SCENARIOS.covertContext);
    expect(error.code).toBe('covert_context');
    expect(error.message).toContain('pick_files');
    expect(model.calls).toHaveLength(0);
    expect(server.calls).toHaveLength(1);
  });

  it('refuses a greedy maxTokens of 1,000,000', async () => {
    const { error, model, server } = await stopped(SCENARIOS.greedy);
    expect(error.code).toBe('request_invalid');
    expect(error.message).toMatch(/1000000/);
    expect(error.message).toMatch(/4096/);
    expect(model.calls).toHaveLength(0);
    expect(server.calls).toHaveLength(1);
  });

  it('refuses elicitation the host did not declare', async () => {
    const { error, model, server } = await stopped(SCENARIOS.undeclaredElicitation);
    expect(error.code).toBe('capability_undeclared');
    expect(error.message).toMatch(/elicitation/);
    expect(model.calls).toHaveLength(0);
    expect(server.calls).toHaveLength(1);
  });

  it('refuses sampling with tools when sampling.tools was not declared', async () => {
    const { error, model } = await stopped(SCENARIOS.undeclaredSamplingTools);
    expect(error.code).toBe('capability_undeclared');
    expect(error.message).toMatch(/sampling\.tools/);
    expect(model.calls).toHaveLength(0);
  });

  it('refuses a 10 MiB prompt by size', async () => {
    const { error, model } = await stopped(SCENARIOS.hugePrompt);
    expect(error.code).toBe('request_invalid');
    expect(error.message).toMatch(/byte/i);
    expect(error.message).not.toContain('AAAA');
    expect(model.calls).toHaveLength(0);
  });

  it('refuses to carry a 5 MiB requestState', async () => {
    const { error, model, server } = await stopped(SCENARIOS.hugeState);
    expect(error.code).toBe('state_too_large');
    expect(error.message).toContain(String(5 * 1024 * 1024));
    expect(model.calls).toHaveLength(0);
    expect(server.calls).toHaveLength(1);
  });

  it('keeps its own arguments and refuses an embedded tools/call', async () => {
    const { error, model, server } = await stopped(SCENARIOS.argumentSwitch);
    expect(error.code).toBe('request_unsupported');
    expect(error.message).toContain('tools/call');
    // Round 1 was answered; the retry carried the caller's arguments, not the server's.
    expect(model.calls).toHaveLength(1);
    expect(server.calls.map((call) => call.arguments)).toEqual([{ path: '.' }, { path: '.' }]);
  });

  it('stops without a retry when the approval denies', async () => {
    const deny: Approver = { review: () => Promise.resolve({ kind: 'deny', reason: 'denied by the user' }) };
    const { error, model, server } = await stopped(SCENARIOS.honest, { approver: deny });
    expect(error.code).toBe('approval_denied');
    expect(error.message).toContain('denied by the user');
    expect(model.calls).toHaveLength(0);
    expect(server.calls).toHaveLength(1);
  });

  it('stops at the per-call token budget before the model is called', async () => {
    const { error, model } = await stopped(SCENARIOS.honest, { budgets: { tokensPerCall: 100 } });
    expect(error.code).toBe('budget_exceeded');
    expect(model.calls).toHaveLength(0);
  });
});

describe('the honest path', () => {
  it('retries with a fresh id, the same arguments, the answers and the state byte for byte', async () => {
    const server = createHostileServer(SCENARIOS.honest);
    const model = createScriptedModel({ pick_files: '["README.md"]' });
    const connection = await hostWith(model).connect({ kind: 'http', url: server.url, fetch: server.fetch });
    const outcome = await connection.callTool('summarize_repo', { path: '.' });
    await connection.close();
    expect(connection.server.name).toBe(SERVER_NAME);
    expect(outcome.rounds).toBe(1);
    expect(outcome.result.content).toEqual([{ type: 'text', text: 'done after ["pick_files"]' }]);
    const [first, retry] = server.calls;
    expect(retry?.id).not.toEqual(first?.id);
    expect(retry?.arguments).toEqual(first?.arguments);
    expect(retry?.requestState).toBe('opaque-state-1');
    expect(retry?.inputResponses?.['pick_files']).toMatchObject({
      role: 'assistant',
      content: { type: 'text', text: '["README.md"]' },
      model: 'mcp-model-input/scripted',
    });
    expect(outcome.usage.tokens).toBeGreaterThan(0);
  });
});

describe('configuration never leaves a policy off by accident', () => {
  it('a limit passed as undefined keeps its default: a greedy request is still refused', async () => {
    const { error, model } = await stopped(SCENARIOS.greedy, {
      limits: { maxTokens: undefined },
      budgets: { tokensPerRound: Number.POSITIVE_INFINITY, tokensPerCall: Number.POSITIVE_INFINITY },
    });
    expect(error.code).toBe('request_invalid');
    expect(model.calls).toHaveLength(0);
  });

  it.each([
    ['a NaN limit', { limits: { maxTokens: Number.NaN } }, /maxTokens must be a number > 0/],
    ['a negative budget', { budgets: { tokensPerCall: -1 } }, /tokensPerCall must be a number > 0/],
    ['a misspelt limit', { limits: { maxToken: 100 } as HostOptions['limits'] }, /unknown limit 'maxToken'/],
    ['a NaN round cap', { maxRounds: Number.NaN }, /maxRounds must be a whole number/],
    ['an infinite round cap', { maxRounds: Number.POSITIVE_INFINITY }, /maxRounds must be a whole number/],
  ])('%s is refused when the host is created', (_name, options, message) => {
    expect(() => hostWith(createScriptedModel({}), options)).toThrow(message);
  });
});

describe('every refusal leaves an audit line', () => {
  async function auditedStop(scenario: Scenario, answer: string, options: Partial<HostOptions> = {}) {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const audit = await createAuditLog({ stream });
    const server = createHostileServer(scenario);
    const model = createScriptedModel({ pick_files: answer });
    const connection = await hostWith(model, { audit, ...options }).connect({
      kind: 'http',
      url: server.url,
      fetch: server.fetch,
    });
    const error = await connection.callTool('summarize_repo', {}).then(
      () => undefined,
      (caught: unknown) => caught as HostError,
    );
    await connection.close();
    await audit.close();
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { error, decisions: lines.map((line) => [line['round'], line['key'], line['decision'], line['reason']]) };
  }

  it('an oversized model answer: refused, with the model, after the approval', async () => {
    const { error, decisions } = await auditedStop(SCENARIOS.honest, 'x'.repeat(200_000));
    expect(error?.code).toBe('response_invalid');
    expect(decisions).toEqual([
      [1, 'pick_files', 'approved', undefined],
      [1, 'pick_files', 'refused', 'response_invalid'],
    ]);
  });

  it('the round past the cap', async () => {
    const { error, decisions } = await auditedStop(SCENARIOS.loopBomb, 'a', { maxRounds: 1 });
    expect(error?.code).toBe('rounds_exceeded');
    expect(decisions.at(-1)).toEqual([2, 'pick_files', 'refused', 'rounds_exceeded']);
  });

  it('a round whose requestState is too large', async () => {
    const { error, decisions } = await auditedStop(SCENARIOS.hugeState, 'a');
    expect(error?.code).toBe('state_too_large');
    expect(decisions).toEqual([[1, 'pick_files', 'refused', 'state_too_large']]);
  });
});

describe('a failed model call in a round', () => {
  it("aborts the round's other model calls (no spend past the refusal)", async () => {
    const ask = (text: string) => ({
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 },
    });
    const server = createHostileServer(() => inputRequired({ fails: ask('a'), waits: ask('b') }, 's'));
    let waitedAborted = false;
    const model: CompletionModel = {
      name: 'two-speed',
      complete: (request) => {
        if (request.key === 'fails') return Promise.reject(new Error('provider down'));
        return new Promise((_resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('never aborted')), 5_000);
          request.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            waitedAborted = true;
            reject(new Error('aborted'));
          });
        });
      },
    };
    const connection = await createHost({
      models: [{ id: 'two-speed', model, ...TIER_ATTRIBUTES.balanced }],
      approver: APPROVE,
      rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
    }).connect({ kind: 'http', url: server.url, fetch: server.fetch });
    const error = await connection.callTool('summarize_repo', {}).then(
      () => undefined,
      (caught: unknown) => caught as HostError,
    );
    await connection.close();
    expect(error?.code).toBe('model_failed');
    expect(error?.detail.key).toBe('fails');
    expect(waitedAborted).toBe(true);
    expect(server.calls).toHaveLength(1);
  });
});

describe('weird JSON from the server', () => {
  it('answers an input keyed "__proto__" under that key, not as a prototype lost on the wire', async () => {
    const request =
      '{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"q"}}],"maxTokens":10}}';
    const scenario: Scenario = (call) =>
      call === 1
        ? inputRequired(JSON.parse(`{"__proto__":${request}}`) as Record<string, unknown>, 's1')
        : complete('ok');
    const server = createHostileServer(scenario);
    const model = createScriptedModel({ ['__proto__']: 'answer' });
    const connection = await hostWith(model).connect({ kind: 'http', url: server.url, fetch: server.fetch });
    const outcome = await connection.callTool('summarize_repo', {});
    await connection.close();
    expect(outcome.rounds).toBe(1);
    expect(model.calls.map((call) => call.key)).toEqual(['__proto__']);
    const responses = server.calls[1]?.inputResponses ?? {};
    expect(Object.keys(responses)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(responses, '__proto__')?.value).toMatchObject({
      content: { type: 'text', text: 'answer' },
    });
  });

  it('keeps a "__proto__" key in the last result of a round-cap stop', async () => {
    const request =
      '{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"q"}}],"maxTokens":10}}';
    const scenario: Scenario = (call) =>
      inputRequired(JSON.parse(`{"__proto__":${request}}`) as Record<string, unknown>, `s${call}`);
    const { error } = await stopped(scenario, { maxRounds: 1 }, createScriptedModel({ ['__proto__']: 'answer' }));
    expect(error.code).toBe('rounds_exceeded');
    expect(JSON.stringify(error.detail.lastResult)).toContain('"__proto__":{"method":"sampling/createMessage"}');
  });
});

describe('server text in host errors', () => {
  it('a JSON-RPC error message is kept without terminal controls, bounded', async () => {
    const { error } = await stopped(() => rpcError(-32000, `boom \x1b]0;PWNED\x07\x1b[2J ${'x'.repeat(50_000)}`));
    expect(error.code).toBe('protocol_error');
    expect(error.detail.rpcCode).toBe(-32000);
    expect(error.message).toContain('boom');
    expect(error.message).not.toContain('\x1b');
    expect(error.message).not.toContain('\x07');
    expect(error.message.length).toBeLessThan(1000);
  });

  it('an input key in a refusal is quoted without terminal controls, bounded', async () => {
    const key = `k\x1b[2J\u202e${'y'.repeat(10_000)}`;
    const { error } = await stopped(() => inputRequired({ [key]: { method: 'tools/call', params: {} } }, 's'));
    expect(error.code).toBe('request_unsupported');
    expect(error.detail.key).toBe(key);
    expect(error.message).not.toContain('\x1b');
    expect(error.message).not.toContain('\u202e');
    expect(error.message.length).toBeLessThan(300);
  });
});

describe('results checked against the output schema', () => {
  it('rejects structuredContent that does not match, after the rounds', async () => {
    const tool = {
      name: 'summarize_repo',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { files: { type: 'array' } }, required: ['files'] },
    };
    const scenario: Scenario = (call) =>
      call === 1
        ? inputRequired(
            {
              pick_files: {
                method: 'sampling/createMessage',
                params: { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 10 },
              },
            },
            's',
          )
        : {
            resultType: 'complete',
            content: [{ type: 'text', text: 'ok' }],
            structuredContent: { files: 'not a list' },
          };
    const server = createHostileServer(scenario, 'http://localhost/mcp', tool);
    const model = createScriptedModel({ pick_files: 'a' });
    const connection = await hostWith(model).connect({ kind: 'http', url: server.url, fetch: server.fetch });
    await expect(connection.callTool('summarize_repo', {})).rejects.toMatchObject({
      code: 'protocol_error',
      message: expect.stringContaining('does not match its outputSchema') as unknown,
    });
    await connection.close();
    expect(server.calls).toHaveLength(2);
  });
});

describe('the rest of the trust boundary, end to end', () => {
  it('checks the model answer size before it goes back: no retry with an oversized answer', async () => {
    const server = createHostileServer(SCENARIOS.honest);
    const model = createScriptedModel({ pick_files: 'x'.repeat(200_000) });
    const connection = await hostWith(model).connect({ kind: 'http', url: server.url, fetch: server.fetch });
    await expect(connection.callTool('summarize_repo', {})).rejects.toMatchObject({ code: 'response_invalid' });
    await connection.close();
    expect(server.calls).toHaveLength(1);
  });

  it('shares one rate limit between concurrent calls to the same server', async () => {
    // Every call asks once, then completes on its retry.
    const askOnce: Scenario = (_call, seen) =>
      seen.requestState === undefined ? SCENARIOS.honest(1, seen) : complete('ok');
    const server = createHostileServer(askOnce);
    const model = createScriptedModel({ pick_files: 'a' });
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 0.001, maxWaitMs: 0 });
    const connection = await hostWith(model, { rateLimiter: limiter }).connect({
      kind: 'http',
      url: server.url,
      fetch: server.fetch,
    });
    const outcomes = await Promise.allSettled([
      connection.callTool('summarize_repo', {}),
      connection.callTool('summarize_repo', {}),
    ]);
    await connection.close();
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({ code: 'rate_limited' });
    expect(model.calls).toHaveLength(1);
  });

  it('maps modelPreferences to the configured models: hints first, then priorities', async () => {
    const scenario: Scenario = (call) =>
      call === 1
        ? inputRequired(
            {
              cheap: {
                method: 'sampling/createMessage',
                params: {
                  messages: [{ role: 'user', content: { type: 'text', text: 'q' } }],
                  maxTokens: 10,
                  modelPreferences: { costPriority: 0.9, intelligencePriority: 0.1 },
                },
              },
              hinted: {
                method: 'sampling/createMessage',
                params: {
                  messages: [{ role: 'user', content: { type: 'text', text: 'q' } }],
                  maxTokens: 10,
                  modelPreferences: { hints: [{ name: 'nonexistent' }, { name: 'STRONG' }], costPriority: 1 },
                },
              },
            },
            's',
          )
        : complete('ok');
    const server = createHostileServer(scenario);
    const cheap = createScriptedModel({ cheap: 'c', hinted: 'c' }, { name: 'cheap-model' });
    const strong = createScriptedModel({ cheap: 's', hinted: 's' }, { name: 'strong-model' });
    const host = createHost({
      models: [
        { id: 'local-strong', model: strong, ...TIER_ATTRIBUTES.strong },
        { id: 'local-cheap', model: cheap, ...TIER_ATTRIBUTES.cheap },
      ],
      approver: APPROVE,
      rateLimiter: createRateLimiter({ capacity: 10, refillPerSecond: 10, maxWaitMs: 0 }),
    });
    const connection = await host.connect({ kind: 'http', url: server.url, fetch: server.fetch });
    await connection.callTool('summarize_repo', {});
    await connection.close();
    expect(cheap.calls.map((call) => call.key)).toEqual(['cheap']);
    expect(strong.calls.map((call) => call.key)).toEqual(['hinted']);
  });

  it('answers form elicitation through the elicitor and roots/list from the configured roots', async () => {
    const scenario: Scenario = (call, seen) =>
      call === 1
        ? inputRequired(
            {
              confirm: {
                method: 'elicitation/create',
                params: {
                  message: 'Which audience?',
                  requestedSchema: { type: 'object', properties: { audience: { type: 'string' } } },
                },
              },
              where: { method: 'roots/list' },
            },
            's',
          )
        : complete(JSON.stringify(seen.inputResponses));
    const server = createHostileServer(scenario);
    const asked: string[] = [];
    const host = createHost({
      elicit: (params, context) => {
        asked.push(`${context.server.name}:${context.tool}:${params.message}`);
        return Promise.resolve({ action: 'accept', content: { audience: 'ops' } });
      },
      roots: [{ uri: 'file:///work/project', name: 'project' }],
      rateLimiter: createRateLimiter({ capacity: 10, refillPerSecond: 10, maxWaitMs: 0 }),
    });
    expect(host.capabilities).toEqual({
      elicitation: { form: {} },
      roots: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const connection = await host.connect({ kind: 'http', url: server.url, fetch: server.fetch });
    const outcome = await connection.callTool('summarize_repo', {});
    await connection.close();
    expect(asked).toEqual([`${SERVER_NAME}:summarize_repo:Which audience?`]);
    expect(JSON.parse((outcome.result.content[0] as { text: string }).text)).toEqual({
      confirm: { action: 'accept', content: { audience: 'ops' } },
      where: { roots: [{ uri: 'file:///work/project', name: 'project' }] },
    });
  });
});

describe('response bodies', () => {
  it('stops reading a server answer past the body cap', async () => {
    const { error, model } = await stopped(() => complete('z'.repeat(3 * 1024 * 1024)), {
      maxResponseBodyBytes: 1024 * 1024,
    });
    expect(error.code).toBe('protocol_error');
    expect(error.message).toContain('larger than the host reads (1048576 bytes)');
    expect(model.calls).toHaveLength(0);
  });

  it('refuses a body cap that is not a sane size when the host is created', () => {
    expect(() => createHost({ maxResponseBodyBytes: 0 })).toThrow(/maxResponseBodyBytes/);
  });
});

describe('rate limit bookkeeping', () => {
  it('gives back the server token when the principal bucket refuses: no model call, no spend', async () => {
    const limiter = createRateLimiter({ capacity: 1, refillPerSecond: 0, maxWaitMs: 0 });
    // Another call of this principal emptied its bucket.
    await limiter.acquire('principal:http://localhost/mcp#alice');
    const { error, model } = await stopped(SCENARIOS.honest, { rateLimiter: limiter, principal: 'alice' });
    expect(error.code).toBe('rate_limited');
    expect(model.calls).toHaveLength(0);
    // The server bucket still has its token.
    await expect(limiter.acquire('server:http://localhost/mcp')).resolves.toBeUndefined();
  });
});
