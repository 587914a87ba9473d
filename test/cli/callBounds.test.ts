/**
 * `call` against servers that push its bounds: a round of tools too large for the budget (the
 * provider a fake OpenAI-compatible endpoint that records what it receives), results nested deeper
 * than printing recurses (`--json`); the bounds' flags and exit codes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { CALL_EXIT } from '../../src/cli/call.js';
import { CUT_MARKER, depthLimited, MAX_PRINT_DEPTH } from '../../src/cli/jsonDepth.js';
import { runCli } from '../helpers/cliIo.js';
import { inputRequired, listenHostileServer, type Scenario } from '../helpers/hostileServers.js';
import { CTRL_C, spawnPty } from '../helpers/pty.js';
import { CLI } from '../helpers/rawChannel.js';
import { chatCompletion, startFakeProvider } from '../models/fakeProviders.js';

/** `{"a":{"a":…{"a":"bottom"}}}`, `depth` objects deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 'bottom' };
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

const deepResult: Scenario = () => ({
  resultType: 'complete',
  content: [{ type: 'text', text: 'deep' }],
  structuredContent: nested(10_000),
});

describe('call --json on a deep result', () => {
  it('prints it cut at the depth limit and exits with its own code', async () => {
    const server = await listenHostileServer(deepResult);
    let run;
    try {
      run = await runCli(['call', 'summarize_repo', '--url', server.url, '--approve', 'deny', '--json']);
    } finally {
      await server.close();
    }
    expect(run.code).toBe(CALL_EXIT.resultCut);
    expect(run.code).not.toBe(CALL_EXIT.toolError);
    expect(run.stderr).not.toContain('Maximum call stack');
    expect(run.stderr).toContain(`nested deeper than ${MAX_PRINT_DEPTH} levels`);
    const printed = JSON.parse(run.stdout) as { result: { content: unknown; structuredContent: unknown } };
    expect(printed.result.content).toEqual([{ type: 'text', text: 'deep' }]);
    let level: unknown = printed.result.structuredContent;
    let depth = 0;
    while (typeof level === 'object' && level !== null) {
      level = (level as { a: unknown }).a;
      depth++;
    }
    expect(level).toBe(CUT_MARKER);
    // The outcome object and its result are the first two levels.
    expect(depth).toBe(MAX_PRINT_DEPTH - 2);
  });

  it('leaves a shallow value whole', () => {
    const value = { a: [1, { b: null }], c: 'text' };
    expect(depthLimited(value)).toEqual({ value, cut: false });
    expect(depthLimited(nested(3), 2)).toEqual({ value: { a: { a: CUT_MARKER } }, cut: true });
  });
});

describe('call: bounds as flags and exit codes', () => {
  it('exits 4 (budget_exceeded) before a round of tools with 250 KB descriptions reaches the provider', async () => {
    const provider = await startFakeProvider('openai', () => ({ body: chatCompletion({ text: 'x' }) }));
    const tool = { name: 'read_file', description: 'd'.repeat(250_000), inputSchema: { type: 'object' } };
    const ask = {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Which?' } }],
        maxTokens: 100,
        tools: [tool],
      },
    };
    const requests: Record<string, unknown> = {};
    for (let index = 0; index < 10; index++) requests[`ask${index}`] = ask;
    const server = await listenHostileServer(() => ({
      resultType: 'input_required',
      inputRequests: requests,
      requestState: 's',
    }));
    const dir = await mkdtemp(join(tmpdir(), 'mmi-budget-'));
    const audit = join(dir, 'audit.jsonl');
    let run;
    try {
      run = await runCli(
        [
          'call',
          'summarize_repo',
          '--url',
          server.url,
          '--host-model',
          'openai:fake-gpt',
          '--approve',
          'auto',
          '--audit',
          audit,
        ],
        { OPENAI_BASE_URL: provider.baseUrl },
      );
    } finally {
      await server.close();
      await provider.close();
    }
    const lines = (await readFile(audit, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    await rm(dir, { recursive: true, force: true });
    expect(run.code).toBe(CALL_EXIT.policyStop);
    expect(run.stderr).toContain('budget_exceeded');
    expect(provider.requests).toHaveLength(0);
    expect(lines).toEqual([expect.objectContaining({ decision: 'refused', reason: 'budget_exceeded' })]);
    expect(lines[0]?.bytes).toBeGreaterThan(250_000);
  });

  it('refuses an --audit-max-bytes under 1024', async () => {
    const run = await runCli([
      'call',
      'summarize_repo',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--audit',
      'a.jsonl',
      '--audit-max-bytes',
      '10',
    ]);
    expect(run.code).toBe(CALL_EXIT.usage);
    expect(run.stderr).toContain('--audit-max-bytes');
    expect(run.stderr).toContain('1024');
  });
});

describe('call: Ctrl-C in a question', () => {
  it('stops the whole round under a terminal: no other question is asked, exit 130', async () => {
    const question = (index: number) => ({
      method: 'elicitation/create',
      params: { message: `Question ${index}?`, requestedSchema: { type: 'object', properties: {} } },
    });
    const server = await listenHostileServer(() =>
      inputRequired({ q0: question(0), q1: question(1), q2: question(2) }, 's1'),
    );
    try {
      const pty = spawnPty(process.execPath, [CLI, 'call', 'summarize_repo', '--url', server.url, '--approve', 'deny']);
      try {
        await pty.waitFor('Respond to this request?');
        expect(pty.output()).toContain('Question 0?');
        pty.write(CTRL_C);
        // Before, Ctrl-C cancelled one question and the next one came up.
        const next = pty.waitFor('Question 1?', 30_000).then(
          () => 'the next question',
          () => 'no other question',
        );
        const outcome = await Promise.race([pty.exit, next]);
        expect(outcome).toBe(130);
        expect(pty.output()).toContain('cancelled');
        expect(server.calls).toHaveLength(1);
      } finally {
        pty.kill();
      }
    } finally {
      await server.close();
    }
  });
});
