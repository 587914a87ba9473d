/**
 * `--model` and its companions: builtin as the default for both commands, providers reached through their
 * base URLs (a local server here), config errors at start-up as one line with exit 2, and --trace on both
 * paths. The commands run in-process (`main(argv, io)`, the environment given as `io.env`). End to end on the
 * built `dist/cli.js`: `serve --stdio --model openai:m` in a child process, its provider variables taken from
 * the process environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { modelPlanFromFlags } from '../../src/cli/modelFlags.js';
import { silentLogger } from '../../src/logger.js';
import { inProcessStdioChannel, runCli } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { meta, stdioChannel } from '../helpers/rawChannel.js';
import { chatCompletion, errorBody, startFakeProvider, type FakeProvider } from '../models/fakeProviders.js';

let repo: Awaited<ReturnType<typeof makeSampleRepo>>;
let openai: FakeProvider;

beforeAll(async () => {
  repo = await makeSampleRepo();
  openai = await startFakeProvider('openai');
});
afterAll(async () => {
  await repo.cleanup();
  await openai.close();
});

/** No provider variables leak in from the developer's shell (the child process inherits it). */
const CLEAN_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' };

function cli(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { ...CLEAN_ENV, ...env });
}

describe('summarize --model', () => {
  it('defaults to builtin: one tools/call, complete, with a model-call line per step', async () => {
    const { code, stderr } = await cli(['summarize', repo.root, '--trace']);
    expect(code).toBe(0);
    const calls = stderr.split('\n').filter((line) => line.startsWith('trace -> ') && line.includes('tools/call'));
    expect(calls).toHaveLength(1);
    expect(stderr).toMatch(/resultType=complete\n/);
    expect(stderr).not.toContain('input_required');
    expect(stderr).toMatch(
      /model call pick_files: model=mcp-model-input\/builtin-heuristic tokens=n\/a latency=\d+ms outcome=ok/,
    );
    expect(stderr).toMatch(/model call summary: model=mcp-model-input\/builtin-heuristic/);
    expect(stderr).not.toContain('Candidate files');
  });

  it('--json reports the usage of the server-owned calls', async () => {
    const { code, stdout } = await cli(['summarize', repo.root, '--json', '--quiet']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Record<string, any>;
    expect(result['usage']).toEqual({
      calls: 2,
      inputTokens: 0,
      outputTokens: 0,
      models: ['mcp-model-input/builtin-heuristic'],
    });
    expect(result['pickedBy']).toBe('model');
  });

  it('openai:MODEL against an OpenAI-compatible server at OPENAI_BASE_URL, with no key', async () => {
    openai.requests.length = 0;
    const { code, stdout, stderr } = await cli(['summarize', repo.root, '--model', 'openai:llama3.2', '--json'], {
      OPENAI_BASE_URL: openai.baseUrl,
    });
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Record<string, any>;
    expect(result['usage']).toEqual({ calls: 2, inputTokens: 240, outputTokens: 60, models: ['llama3.2'] });
    expect(openai.requests.map((request) => request.headers.authorization)).toEqual([undefined, undefined]);
    expect(stderr).toMatch(/model call summary: model=llama3\.2 tokens=120\+30 latency=\d+ms outcome=ok/);
  });

  it('a provider failure exits 1 with what to do, one line, no stack trace', async () => {
    openai.enqueue({ status: 401, body: errorBody('openai', 401, 'Incorrect API key provided: sk-l***') });
    const { code, stderr } = await cli(['summarize', repo.root, '--model', 'openai:m', '--quiet'], {
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_API_KEY: 'sk-local-secret',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('summarize_repo failed');
    expect(stderr).toContain('OPENAI_API_KEY');
    expect(stderr).not.toMatch(/sk-local-secret|sk-l\*\*\*|\n\s+at /);
  });

  it('a pick that needs the fallback still prints a summary, with the note', async () => {
    openai.enqueue({ body: chatCompletion({ text: 'prose' }) }, { body: chatCompletion({ text: 'more prose' }) });
    const { code, stdout } = await cli(['summarize', repo.root, '--model', 'openai:m', '--quiet'], {
      OPENAI_BASE_URL: openai.baseUrl,
    });
    expect(code).toBe(0);
    expect(stdout).toContain("Note: The model's file pick could not be used");
  });

  it('--model host keeps the MRTR path, with the built-in model as the host', async () => {
    const { code, stdout } = await cli(['summarize', repo.root, '--model', 'host', '--json', '--quiet']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Record<string, any>;
    expect(result['model']).toBe('mcp-model-input/builtin-heuristic');
    expect(result['usage']).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, models: [] });
  });
});

describe('configuration errors at start-up: one line, exit 2', () => {
  it.each([
    [['summarize', '.', '--model', 'nope'], "unknown model source 'nope'"],
    [['serve', '--stdio', '--model', 'gemini:pro'], "unknown model provider 'gemini'"],
    [['serve', '--stdio', '--model', 'anthropic:claude-haiku-4-5'], 'needs ANTHROPIC_API_KEY'],
    [['serve', '--stdio', '--model', 'openai:gpt-5.4-mini'], 'needs OPENAI_API_KEY (or OPENAI_BASE_URL'],
    [['serve', '--stdio', '--model', 'builtin,host'], 'is never used'],
    [['serve', '--stdio', '--model-timeout', '0'], '--model-timeout must be an integer from 1 to 3600'],
    [['summarize', '.', '--model-retries', '11'], '--model-retries must be an integer from 0 to 10'],
    [['serve', '--stdio', '--max-model-calls', 'x'], '--max-model-calls must be an integer'],
    [['serve', '--stdio', '--max-model-tokens', '5'], '--max-model-tokens must be an integer from 1000'],
    [['serve', '--stdio', '--model-deadline', '0'], '--model-deadline must be an integer from 1 to 3600'],
    [['summarize', '.', '--model-deadline', '3601'], '--model-deadline must be an integer from 1 to 3600'],
  ])('%j', async (args, message) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a bad base URL is refused without echoing it', async () => {
    const { code, stderr } = await cli(['serve', '--stdio', '--model', 'openai:m'], {
      OPENAI_BASE_URL: 'ftp://user:hunter2@example.test',
    });
    expect(code).toBe(2);
    expect(stderr).not.toContain('hunter2');
  });
});

describe('help for the model flags', () => {
  it('serve and summarize list --model-deadline and every retried status; --quiet says what it hides', async () => {
    for (const command of ['serve', 'summarize']) {
      const { stdout } = await cli([command, '--help']);
      expect(stdout).toMatch(/--model-deadline SECONDS +wall-clock time for all model calls/);
      expect(stdout).toMatch(/--model-retries N +retries on 429, 408, 409, 5xx,/);
      expect(stdout).toMatch(/--quiet .*one line per model call/);
    }
    const { stdout } = await cli(['--help']);
    expect(stdout).toContain('summarize a repository in-process (default model: builtin)');
  });

  it('--model-deadline becomes the plan budget, in milliseconds; 180 s by default', () => {
    expect(modelPlanFromFlags({ 'model-deadline': '5' }, silentLogger, {}).budget?.deadlineMs).toBe(5000);
    expect(modelPlanFromFlags({}, silentLogger, {}).budget?.deadlineMs).toBe(180_000);
  });
});

describe('serve --model', () => {
  it('defaults to builtin: a tools/call without sampling completes in one call', async () => {
    const channel = inProcessStdioChannel(['--root', repo.root, '--quiet']);
    const reply = await channel.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, _meta: meta({}) },
    });
    expect(reply.message?.['result'].resultType).toBe('complete');
    expect(reply.message?.['result'].structuredContent.usage.calls).toBe(2);
    await channel.close();
  });

  it('logs one line per model call on stderr, never the prompt (the binary, in a child process)', async () => {
    const channel = stdioChannel(['--root', repo.root, '--model', 'openai:m'], {
      ...CLEAN_ENV,
      OPENAI_BASE_URL: openai.baseUrl,
    });
    const reply = await channel.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }) },
    });
    expect(reply.message?.['result'].isError).toBe(false);
    await channel.close();
    const lines = channel
      .stderr()
      .split('\n')
      .filter((line) => line.includes('model call'));
    expect(lines).toHaveLength(2);
    expect(channel.stderr()).toContain('(model: openai:m)');
    expect(channel.stderr()).not.toContain('Candidate files');
  });
});
