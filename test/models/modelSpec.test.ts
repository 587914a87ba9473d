/**
 * `--model` specs: the grammar, the configuration errors caught at start-up (one line, never a
 * key's value), and the documented mapping from a step's model preferences to a model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ModelInputError } from '../../src/errors.js';
import { BUILTIN_MODEL_NAME } from '../../src/flows/summarizeRepo/builtin/model.js';
import type { CompletionModel, ModelCompletionRequest } from '../../src/models/modelSource.js';
import { chooseModel, createTieredModel, preferredTier } from '../../src/models/preferences.js';
import { parseModelSpec, type ModelSource } from '../../src/models/sources.js';
import { instantRetry, startFakeProvider, type FakeProvider } from './fakeProviders.js';

const SAMPLING = { sampling: {} };
const NONE = {};
const OPENAI_ENV = { OPENAI_API_KEY: 'sk-openai-secret-1234' };
const ANTHROPIC_ENV = { ANTHROPIC_API_KEY: 'sk-ant-secret-5678' };

function configError(spec: string, env: Record<string, string> = {}): ModelInputError {
  try {
    parseModelSpec(spec, { env });
  } catch (error) {
    expect(error).toBeInstanceOf(ModelInputError);
    expect((error as ModelInputError).code).toBe('config_invalid');
    expect((error as Error).message).not.toContain('\n');
    return error as ModelInputError;
  }
  throw new Error(`'${spec}' was accepted`);
}

const nameOf = (source: ModelSource | undefined): string | undefined =>
  source === undefined
    ? undefined
    : source.kind === 'host'
      ? 'host'
      : source.kind === 'builtin'
        ? BUILTIN_MODEL_NAME
        : source.model.name;

describe('--model grammar', () => {
  it('builtin is a server-owned source that serves without sampling', () => {
    const plan = parseModelSpec('builtin', { env: {} });
    expect(nameOf(plan.sourceFor('pick_files', NONE))).toBe(BUILTIN_MODEL_NAME);
  });

  it('provider sources need no network to parse, and name the model', () => {
    const plan = parseModelSpec('openai:gpt-5.4-mini', { env: OPENAI_ENV });
    expect(nameOf(plan.sourceFor('summary', NONE))).toBe('openai:gpt-5.4-mini');
    expect(nameOf(parseModelSpec('anthropic:claude-haiku-4-5', { env: ANTHROPIC_ENV }).sourceFor('x', NONE))).toBe(
      'anthropic:claude-haiku-4-5',
    );
    // A local OpenAI-compatible server (Ollama, vLLM) needs a base URL, not a key.
    const ollama = parseModelSpec('openai:llama3.2:3b', { env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' } });
    // Model ids keep their own colons and slashes (Ollama tags, vLLM's Hugging Face names).
    expect(nameOf(ollama.sourceFor('summary', NONE))).toBe('openai:llama3.2:3b');
    const vllm = parseModelSpec('openai:Qwen/Qwen2.5-7B-Instruct', {
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' },
    });
    expect(nameOf(vllm.sourceFor('summary', NONE))).toBe('openai:Qwen/Qwen2.5-7B-Instruct');
  });

  it('a preference list: the host when the request declares sampling, otherwise the next source', () => {
    const plan = parseModelSpec('host,openai:gpt-5.4-mini', { env: OPENAI_ENV });
    expect(nameOf(plan.sourceFor('pick_files', SAMPLING))).toBe('host');
    expect(nameOf(plan.sourceFor('pick_files', NONE))).toBe('openai:gpt-5.4-mini');
    expect(parseModelSpec('host', { env: {} }).sourceFor('summary', NONE)).toBeUndefined();
  });

  it('per-step assignments, with aliases; the same source is one instance', () => {
    const plan = parseModelSpec('pick=builtin, summary=anthropic:claude-sonnet-5-5', { env: ANTHROPIC_ENV });
    expect(nameOf(plan.sourceFor('pick_files', SAMPLING))).toBe(BUILTIN_MODEL_NAME);
    expect(nameOf(plan.sourceFor('summary', NONE))).toBe('anthropic:claude-sonnet-5-5');
    const same = parseModelSpec('pick_files=openai:m,summary=openai:m', { env: OPENAI_ENV });
    expect(same.sourceFor('pick_files', NONE)).toBe(same.sourceFor('summary', NONE));
  });

  it('carries the per-tool-call budget, with defaults', () => {
    expect(parseModelSpec('builtin', { env: {} }).budget).toEqual({
      maxCalls: 6,
      maxTokens: 200_000,
      deadlineMs: 180_000,
    });
    expect(parseModelSpec('builtin', { env: {}, budget: { maxCalls: 2 } }).budget?.maxCalls).toBe(2);
    expect(parseModelSpec('builtin', { env: {}, budget: { deadlineMs: 5000 } }).budget?.deadlineMs).toBe(5000);
  });
});

describe('configuration errors at start-up', () => {
  it.each([
    ['', 'empty --model spec'],
    ['nope', "unknown model source 'nope' (use builtin, host, openai:MODEL or anthropic:MODEL)"],
    ['gemini:pro', "unknown model provider 'gemini' in 'gemini:pro'"],
    ['openai:', "bad model source 'openai:'"],
    ['openai:a+b+c', "bad model source 'openai:a+b+c'"],
    ['openai:gpt\u001b[2Jx', 'bad model source'],
    ['openai:gpt\u202ex', 'bad model source'],
    ['openai:gpt\nmcp-model-input: forged', "bad model source 'openai:gpt?mcp-model-input: forged'"],
    ['no\rpe', "unknown model source 'no?pe'"],
    ['builtin,host', "--model 'host' after 'builtin' is never used"],
    ['pick=builtin', '--model assigns no source to: summary'],
    ['pick=builtin,summary=x', "unknown model source 'x'"],
    ['size=host', "bad --model entry 'size=host'"],
    ['pick=host,pick=builtin,summary=host', 'assigns pick_files twice'],
  ])('%j', (spec, message) => {
    expect(configError(spec).message).toContain(message);
  });

  it('anthropic needs ANTHROPIC_API_KEY', () => {
    expect(configError('anthropic:claude-haiku-4-5').message).toBe(
      'anthropic:claude-haiku-4-5 needs ANTHROPIC_API_KEY in the environment',
    );
  });

  it('openai needs OPENAI_API_KEY unless OPENAI_BASE_URL names another server', () => {
    expect(configError('openai:gpt-5.4-mini').message).toContain('needs OPENAI_API_KEY (or OPENAI_BASE_URL');
  });

  it('a base URL that is not an http(s) URL is refused without echoing it', () => {
    const bad = configError('openai:m', { OPENAI_BASE_URL: 'ftp://user:hunter2@example.test/v1' });
    expect(bad.message).toBe('OPENAI_BASE_URL must be an http(s) URL');
    const junk = configError('anthropic:m', { ...ANTHROPIC_ENV, ANTHROPIC_BASE_URL: 'not a url hunter2' });
    expect(junk.message).not.toContain('hunter2');
  });

  it('no message ever contains a key', () => {
    for (const spec of ['openai:', 'gemini:x', 'builtin,openai:x', 'pick=openai:x']) {
      const error = configError(spec, { ...OPENAI_ENV, ...ANTHROPIC_ENV });
      expect(error.message).not.toMatch(/secret/);
    }
  });
});

describe('model preferences -> model choice', () => {
  it('maps summarize_repo steps: pick_files to the cheap model, summary to the strong one', () => {
    expect(preferredTier({ costPriority: 0.8, intelligencePriority: 0.2 })).toBe('cheap');
    expect(preferredTier({ costPriority: 0.2, intelligencePriority: 0.8 })).toBe('strong');
    expect(preferredTier({ speedPriority: 0.9, intelligencePriority: 0.5 })).toBe('cheap');
    expect(preferredTier({ costPriority: 0.5, intelligencePriority: 0.5 })).toBe('cheap');
    expect(preferredTier(undefined)).toBe('strong');
    expect(preferredTier({})).toBe('strong');
  });

  function fake(name: string): CompletionModel & { seen: ModelCompletionRequest[] } {
    const seen: ModelCompletionRequest[] = [];
    return {
      name,
      seen,
      complete: async (request) => {
        seen.push(request);
        return { role: 'assistant', content: { type: 'text', text: name }, model: name };
      },
    };
  }

  it('hints (substring, in order) win over priorities', () => {
    const tiers = { cheap: { id: 'gpt-5.4-mini', model: fake('mini') }, strong: { id: 'gpt-5.5', model: fake('big') } };
    expect(chooseModel({ hints: [{ name: '5.5' }], costPriority: 1 }, tiers).name).toBe('big');
    expect(chooseModel({ hints: [{ name: 'claude' }, { name: 'mini' }], intelligencePriority: 1 }, tiers).name).toBe(
      'mini',
    );
    expect(chooseModel({ hints: [{ name: 'claude' }], intelligencePriority: 1 }, tiers).name).toBe('big');
  });

  it('a tiered model routes each request by its preferences', async () => {
    const cheap = fake('cheap');
    const strong = fake('strong');
    const tiered = createTieredModel('openai:c+s', {
      cheap: { id: 'c', model: cheap },
      strong: { id: 's', model: strong },
    });
    const ask = (modelPreferences: Record<string, number>) =>
      tiered.complete({ key: 'k', params: { messages: [], maxTokens: 1, modelPreferences } });
    await ask({ costPriority: 0.8, intelligencePriority: 0.2 });
    await ask({ costPriority: 0.2, intelligencePriority: 0.8 });
    expect(cheap.seen).toHaveLength(1);
    expect(strong.seen).toHaveLength(1);
  });
});

describe('PROVIDER:CHEAP+STRONG against a local server', () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider('openai');
  });
  afterAll(async () => {
    await provider.close();
  });

  it('sends each step to its tier', async () => {
    const plan = parseModelSpec('openai:small-model+large-model', {
      env: { OPENAI_BASE_URL: provider.baseUrl },
      retry: instantRetry().policy,
    });
    const source = plan.sourceFor('pick_files', NONE);
    if (source?.kind !== 'server') throw new Error('expected a server-owned source');
    expect(source.model.name).toBe('openai:small-model+large-model');
    const ask = (costPriority: number, intelligencePriority: number) =>
      source.model.complete({
        key: 'k',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
          maxTokens: 10,
          modelPreferences: { costPriority, intelligencePriority },
        },
      });
    expect((await ask(0.8, 0.2)).model).toBe('small-model');
    expect((await ask(0.2, 0.8)).model).toBe('large-model');
    expect(provider.requests.map((request) => request.body.model)).toEqual(['small-model', 'large-model']);
  });
});
