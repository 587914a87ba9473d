/**
 * The CLI's commands through `main(argv, io)` in-process (captured streams, the environment the test gives).
 * End to end on the built `dist/cli.js` in a child process, kept for what only a process shows: the summary on
 * the real stdout with exit 0, a usage error's exit 2, state keys shared between two server processes through
 * the environment, and `serve --http` stopping on SIGTERM.
 */
import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { inProcessStdioChannel, runCli } from '../helpers/cliIo.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';
import { startHttpServer } from '../helpers/processes.js';
import { CLI, mcpRequest, meta } from '../helpers/rawChannel.js';

const run = promisify(execFile);
const cli = runCli;
let repo: Awaited<ReturnType<typeof makeSampleRepo>>;

beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

/** The binary in a child process. */
async function binary(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('summarize', () => {
  it('prints the built-in summary of a repository', async () => {
    const { code, stdout } = await cli(['summarize', repo.root, '--quiet']);
    expect(code).toBe(0);
    expect(stdout).toContain('sample-widget');
    expect(stdout).toContain('CSV to charts');
    expect(stdout).toMatch(/heuristic/i);
  });

  it('--json prints the structured result', async () => {
    const { code, stdout } = await cli([
      'summarize',
      repo.root,
      '--json',
      '--max-files',
      '2',
      '--audience',
      'executive',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { picked: string[]; audience: string; summary: string };
    expect(result.picked).toContain('README.md');
    expect(result.picked.length).toBeLessThanOrEqual(2);
    expect(result.audience).toBe('executive');
  });

  it('--trace with --model host shows each MRTR exchange with fresh ids and never the prompt text', async () => {
    const { code, stderr } = await cli(['summarize', repo.root, '--model', 'host', '--trace']);
    expect(code).toBe(0);
    const calls = stderr.split('\n').filter((line) => line.startsWith('trace -> ') && line.includes('tools/call'));
    expect(calls).toHaveLength(3);
    const ids = calls.map((line) => /id=(\S+)/.exec(line)?.[1]);
    expect(new Set(ids).size).toBe(3);
    expect(stderr).toContain('resultType=input_required inputRequests=[pick_files]');
    expect(stderr).toContain('resultType=input_required inputRequests=[summary]');
    expect(stderr).toMatch(/resultType=complete\n/);
    expect(stderr).not.toContain('Candidate files');
  });

  it('--path summarizes a sub-directory; a path outside the root is a tool error', async () => {
    const inside = await cli(['summarize', repo.root, '--path', 'packages/core', '--json']);
    expect(inside.code).toBe(0);
    expect((JSON.parse(inside.stdout) as { picked: string[] }).picked).toContain('packages/core/README.md');
    const outside = await cli(['summarize', repo.root, '--path', '../..']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('summarize_repo failed');
  });

  it('rejects bad usage with exit 2 and a one-line reason', async () => {
    expect((await cli(['summarize', join(repo.root, 'README.md')])).code).toBe(2);
    const badFlag = await cli(['summarize', '--max-files', '9']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--max-files must be an integer from 1 to 8');
    expect((await cli(['summarize', '--bogus'])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });
});

describe('help and version', () => {
  it('documents every command and flag it parses', async () => {
    const main = await cli(['--help']);
    expect(main.code).toBe(0);
    for (const command of ['summarize', 'serve', 'keygen']) expect(main.stdout).toContain(command);
    const serve = await cli(['serve', '--help']);
    for (const flag of [
      '--stdio',
      '--http',
      '--root',
      '--model',
      '--state-keys-file',
      '--state-ttl',
      '--max-rounds',
      '--tokens-file',
      '--allow-remote',
      '--max-body',
      '--quiet',
      'MCP_MODEL_INPUT_STATE_KEYS',
      '--model-timeout',
      '--model-retries',
      '--max-model-calls',
      '--max-model-tokens',
      'openai:MODEL',
      'anthropic:MODEL',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_BASE_URL',
      '(default: builtin)',
    ]) {
      expect(serve.stdout).toContain(flag);
    }
    const summarize = await cli(['summarize', '--help']);
    for (const flag of [
      '--path',
      '--audience',
      '--max-files',
      '--json',
      '--trace',
      '--quiet',
      '--model',
      '--model-timeout',
      '--model-retries',
      '--max-model-calls',
      '--max-model-tokens',
      'OPENAI_BASE_URL',
      'ANTHROPIC_API_KEY',
    ]) {
      expect(summarize.stdout).toContain(flag);
    }
    expect((await cli(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('keygen prints a usable kid:base64 key line', async () => {
    const { stdout } = await cli(['keygen', 'k1']);
    const [kid, secret] = stdout.trim().split(':');
    expect(kid).toBe('k1');
    expect(Buffer.from(secret ?? '', 'base64')).toHaveLength(32);
  });
});

describe('serve configuration errors are caught at start-up', () => {
  it.each([
    [['serve'], 'exactly one of --stdio or --http'],
    [['serve', '--stdio', '--http', '0'], 'exactly one of --stdio or --http'],
    [['serve', '--http', 'nonsense'], '--http expects [HOST:]PORT'],
    [['serve', '--http', '0.0.0.0:0'], 'refusing to bind 0.0.0.0 without --tokens-file'],
    [['serve', '--stdio', '--model', 'gpt-9'], "unknown model source 'gpt-9'"],
    [['serve', '--stdio', '--tokens-file', 'x.json'], '--tokens-file applies to --http only'],
    [['serve', '--stdio', '--state-keys-file', '/nonexistent/keys'], '/nonexistent/keys'],
    [['serve', '--stdio', '--root', '/nonexistent/dir'], 'is not a directory'],
  ])('%j', async (args, message) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a bad MCP_MODEL_INPUT_STATE_KEYS value never echoes the secret', async () => {
    const { code, stderr } = await cli(['serve', '--stdio'], { MCP_MODEL_INPUT_STATE_KEYS: 'k1:c2VjcmV0LXZhbHVl' });
    expect(code).toBe(2);
    expect(stderr).not.toContain('c2VjcmV0LXZhbHVl');
  });
});

describe('state keys across processes', () => {
  function oneCall(env: Record<string, string>, messages: unknown[]): Promise<{ replies: any[]; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--model', 'host', '--root', repo.root], {
        env: { ...process.env, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.split('\n').filter(Boolean).length >= messages.length) child.stdin.end();
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', () =>
        resolve({
          replies: stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
          stderr,
        }),
      );
      for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  }
  const callMessage = (extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
  });

  it('a retry served by another process with the same keys continues; other keys reject it', async () => {
    const keys = 'k2:' + Buffer.alloc(32, 2).toString('base64') + ',k1:' + Buffer.alloc(32, 1).toString('base64');
    const first = await oneCall({ MCP_MODEL_INPUT_STATE_KEYS: keys }, [callMessage()]);
    expect(first.stderr).not.toContain('random per-process key');
    const requestState = first.replies[0].result.requestState as string;
    expect(requestState.startsWith('mmi1.k2.')).toBe(true);
    const retry = callMessage({
      requestState,
      inputResponses: {
        pick_files: { role: 'assistant', content: { type: 'text', text: '["README.md"]' }, model: 'm' },
      },
    });

    const rotated = 'k3:' + Buffer.alloc(32, 3).toString('base64') + ',' + keys;
    const second = await oneCall({ MCP_MODEL_INPUT_STATE_KEYS: rotated }, [retry]);
    expect(second.replies[0].result.inputRequests).toHaveProperty('summary');
    expect((second.replies[0].result.requestState as string).startsWith('mmi1.k3.')).toBe(true);

    const other = await oneCall({ MCP_MODEL_INPUT_STATE_KEYS: 'k9:' + Buffer.alloc(32, 9).toString('base64') }, [
      retry,
    ]);
    expect(other.replies[0].error.code).toBe(-32602);
    expect(other.stderr).toContain('request state rejected (unknown_key)');
  });

  it('without keys on stdio it says nothing of them: every retry comes back to this process', async () => {
    const channel = inProcessStdioChannel(['--model', 'host', '--root', repo.root], { MCP_MODEL_INPUT_STATE_KEYS: '' });
    expect((await channel.send(callMessage())).message?.['result'].resultType).toBe('input_required');
    await channel.close();
    expect(channel.stderr()).not.toContain('random per-process key');
  });
});

describe('serve --http', () => {
  it('listens on 127.0.0.1 and stops on SIGTERM', async () => {
    const server = await startHttpServer(['--root', repo.root]);
    const response = await fetch(
      mcpRequest(server.url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta() } }),
    );
    expect(response.status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});

describe('tokens file', () => {
  it('rejects a malformed tokens file at start-up without printing tokens', async () => {
    const path = join(repo.root, 'tokens.json');
    await writeFile(path, JSON.stringify({ short: 'alice' }));
    const { code, stderr } = await cli(['serve', '--http', '127.0.0.1:0', '--tokens-file', path]);
    expect(code).toBe(2);
    expect(stderr).toContain('at least 16 characters');
    expect(stderr).not.toContain('short');
  });
});

describe('the binary', () => {
  it('prints the summary on its stdout and exits 0; bad usage exits 2 with the reason on stderr', async () => {
    const ok = await binary(['summarize', repo.root, '--quiet']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('sample-widget');
    expect(ok.stderr).toBe('');
    const bad = await binary(['summarize', '--max-files', '9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-files must be an integer from 1 to 8');
    expect(bad.stdout).toBe('');
  });
});
