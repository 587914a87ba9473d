/**
 * Issue 18 end to end: a repository holding every supported credential kind — as secret files by name and inside
 * ordinary files — summarized on every path: server-owned OpenAI-compatible and Anthropic providers, the host's
 * model over MRTR (pick and summary `sampling/createMessage` requests), live sampling of a 2025-11-25 client, and
 * the `summarize` command's printed text and JSON. Whatever the model answers (here: every secret file it can
 * name), no secret value reaches a model or the output, and the result says what was withheld. The commands run
 * in-process (`main(argv, io)`: what they print is what they write to their stdout and stderr streams); the binary
 * prints its summary in test/cli/cli.test.ts and serves stdio in test/server/sdkClient.test.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runLocalSummarize } from '../../src/app/localSummarize.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import { createBuiltinModel } from '../../src/flows/summarizeRepo/builtin/model.js';
import type { CompletionModel } from '../../src/models/modelSource.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { inProcessStdioTransport, runCli } from '../helpers/cliIo.js';
import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { httpChannel, meta } from '../helpers/rawChannel.js';
import { capturingLogger } from '../helpers/servers.js';
import { anthropicMessage, chatCompletion, startFakeProvider, type FakeProvider } from '../models/fakeProviders.js';
import { forbiddenStrings, ordinaryFiles, secretFiles } from '../repo/secrets/corpus.js';

const SECRET_NAMES = Object.keys(secretFiles());
/** A pick naming every secret file first, then the ordinary files that hold secrets. */
const GREEDY_PICK = JSON.stringify([
  ...SECRET_NAMES,
  'README.md',
  'src/index.ts',
  'src/signing.ts',
  'config/app.yaml',
  'config/settings.toml',
  'config/keys.json',
  'src/db.ts',
  'docs/pgp.md',
]);
const FORBIDDEN = forbiddenStrings();

let repo: FixtureRepo;
let openai: FakeProvider;
let anthropic: FakeProvider;
beforeAll(async () => {
  repo = await makeTree({ ...ordinaryFiles(), ...secretFiles() }, 'mmi-secrets-');
  openai = await startFakeProvider('openai');
  anthropic = await startFakeProvider('anthropic');
});
afterAll(async () => {
  await repo.cleanup();
  await openai.close();
  await anthropic.close();
});

function expectNoSecret(where: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const forbidden of FORBIDDEN) {
    if (text.includes(forbidden)) throw new Error(`${where} carries a secret: ${forbidden.slice(0, 12)}…`);
  }
}

/** What every finished result must say about the secrets it withheld. */
function expectReported(structured: any, text: string, dropped: boolean): void {
  expect(structured.skipped).toEqual(
    expect.arrayContaining([
      { reason: 'secret_file', count: SECRET_NAMES.length, examples: expect.any(Array) as unknown },
    ]),
  );
  expect(structured.redacted.length).toBeGreaterThan(0);
  for (const entry of structured.redacted)
    expect(entry).toEqual({ path: expect.any(String), kind: expect.any(String), count: expect.any(Number) });
  expect(text).toMatch(/Note: \d+ secrets? in \d+ files? (?:was|were) redacted\./);
  expect(structured.notes.join('\n')).toMatch(/secrets? in \d+ files? (?:was|were) redacted/);
  for (const picked of structured.picked) expect(SECRET_NAMES).not.toContain(picked);
  if (dropped) {
    expect(structured.dropped.length).toBeGreaterThan(0);
    for (const entry of structured.dropped) expect(entry).toMatch(/ \(secret file: never read\)$/);
    expect(text).toMatch(/Note: The model asked for \d+ secret-bearing files?, never read: \.env/);
  }
}

/** A 1.x client whose host model names every secret file in its pick; checks its live samples and the result. */
async function greedyLegacyCall(transport: Transport, where: string): Promise<void> {
  const samples: unknown[] = [];
  const builtin = createBuiltinModel();
  const client = new Client({ name: 'legacy-greedy', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    samples.push(request.params);
    const picking = request.params.modelPreferences?.costPriority === 0.8;
    const text = picking
      ? GREEDY_PICK
      : ((await builtin.complete({ key: 'summary', params: request.params as any })).content as { text: string }).text;
    return { role: 'assistant' as const, content: { type: 'text' as const, text }, model: 'legacy-host' };
  });
  await client.connect(transport);
  try {
    const result: any = await client.callTool({ name: 'summarize_repo', arguments: { maxFiles: 8 } });
    expect(result.isError).toBe(false);
    expect(samples).toHaveLength(2);
    samples.forEach((params, index) => expectNoSecret(`${where} live sample ${index}`, params));
    expectNoSecret(`${where} result`, result);
    expectReported(result.structuredContent, result.content.map((block: any) => block.text).join('\n'), true);
  } finally {
    await client.close();
  }
}

describe('no secret reaches a model, on any path', () => {
  it.each(['openai', 'anthropic'] as const)(
    'server-owned %s provider: requests, text and structured result',
    async (kind) => {
      const provider = kind === 'openai' ? openai : anthropic;
      provider.requests.length = 0;
      const pick = { text: GREEDY_PICK, model: 'm' };
      provider.enqueue({ body: kind === 'openai' ? chatCompletion(pick) : anthropicMessage(pick) });
      const logger = capturingLogger();
      const models = parseModelSpec(`${kind}:m`, {
        env: { OPENAI_BASE_URL: openai.baseUrl, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.baseUrl },
        logger,
      });
      const server = createModelInputServer({
        root: repo.root,
        models,
        keyRing: createEphemeralKeyRing(),
        logger,
        defaultPrincipal: ANONYMOUS,
      });
      const channel = httpChannel(
        createModelInputHttpFront(server, { logger, allowedHosts: ['localhost'], allowedOrigins: [] }),
      );
      const reply = await channel.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'summarize_repo', arguments: { maxFiles: 8 }, _meta: meta({}) },
      });
      await channel.close();
      const result = reply.message?.['result'];
      expect(result.isError).toBe(false);
      expect(provider.requests).toHaveLength(2);
      // The summary prompt did carry the ordinary files, with markers where the secrets were.
      expect(JSON.stringify(provider.requests[1]!.body)).toContain('[redacted: ');
      provider.requests.forEach((request, index) => expectNoSecret(`${kind} request ${index}`, request.body));
      expectNoSecret('result', result);
      expectNoSecret('log', logger.lines);
      expectReported(result.structuredContent, result.content.map((block: any) => block.text).join('\n'), true);
    },
  );

  it("the host's model over MRTR: the pick and summary sampling/createMessage requests, and the result", async () => {
    const builtin = createBuiltinModel();
    const requests: unknown[] = [];
    const host: CompletionModel = {
      name: 'greedy-host',
      async complete(request) {
        requests.push(request.params);
        if (request.params.maxTokens === 400) {
          return { role: 'assistant', content: { type: 'text', text: GREEDY_PICK }, model: 'greedy-host' };
        }
        return builtin.complete(request);
      },
    };
    const traced: string[] = [];
    const result = await runLocalSummarize({
      root: repo.root,
      args: { maxFiles: 8 },
      logger: capturingLogger(),
      models: parseModelSpec('host'),
      model: host,
      trace: (line: string) => traced.push(line),
    });
    expect(result.isError).toBe(false);
    expect(requests).toHaveLength(2);
    requests.forEach((params, index) => expectNoSecret(`sampling request ${index}`, params));
    expect(JSON.stringify(requests[1])).toContain('[redacted: ');
    expectNoSecret('result', result);
    expectNoSecret('trace', traced);
    const text = result.content.map((block: any) => block.text).join('\n');
    expectReported(result.structuredContent, text, true);
  });

  it('a summary step prepared again for a server-owned model (host,builtin) counts each secret once', async () => {
    const builtin = createBuiltinModel();
    const hostWith = (summary: 'answer' | 'empty'): CompletionModel => ({
      name: 'host',
      async complete(request) {
        if (request.params.maxTokens === 400) {
          return { role: 'assistant', content: { type: 'text', text: GREEDY_PICK }, model: 'host' };
        }
        if (summary === 'empty') return { role: 'assistant', content: { type: 'text', text: ' ' }, model: 'host' };
        return builtin.complete(request);
      },
    });
    const run = (summary: 'answer' | 'empty') =>
      runLocalSummarize({
        root: repo.root,
        args: { maxFiles: 8 },
        logger: capturingLogger(),
        models: parseModelSpec('host,builtin'),
        model: hostWith(summary),
      });
    const direct: any = await run('answer');
    const replaced: any = await run('empty');
    expect(replaced.isError).toBe(false);
    expect(replaced.structuredContent.notes.join('\n')).toMatch(/answered that step instead/);
    expect(replaced.structuredContent.redacted).toEqual(direct.structuredContent.redacted);
    expectNoSecret('replaced result', replaced);
  });

  it('a 2025-11-25 client over HTTP: the live sampling requests and the result', async () => {
    const logger = capturingLogger();
    const server = createModelInputServer({
      root: repo.root,
      models: parseModelSpec('host'),
      keyRing: createEphemeralKeyRing(),
      logger,
      defaultPrincipal: ANONYMOUS,
    });
    const front = createModelInputHttpFront(server, {
      logger,
      allowedHosts: ['localhost'],
      allowedOrigins: ['http://localhost'],
    });
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    await greedyLegacyCall(transport, 'HTTP');
    await front.close();
  });

  it('a 2025-11-25 client of `serve --stdio`: the live sampling requests and the result', async () => {
    const transport = inProcessStdioTransport(['--root', repo.root, '--model', 'host', '--quiet']);
    await greedyLegacyCall(transport, 'stdio');
    expectNoSecret('serve --stdio stderr', transport.stderr());
  });

  it('`summarize`: the printed text and the printed JSON', async () => {
    const text = await runCli(['summarize', repo.root, '--max-files', '8', '--quiet']);
    expect(text.code).toBe(0);
    expectNoSecret('summarize stdout', text.stdout);
    expectNoSecret('summarize stderr', text.stderr);
    expect(text.stdout).toMatch(/Note: \d+ secrets? in \d+ files? (?:was|were) redacted\./);
    const json = await runCli(['summarize', repo.root, '--max-files', '8', '--json', '--model', 'host']);
    expect(json.code).toBe(0);
    expectNoSecret('summarize --json stdout', json.stdout);
    const structured = JSON.parse(json.stdout);
    expectReported(structured, structured.notes.map((note: string) => `Note: ${note}`).join('\n'), false);
    expect(structured.redacted.some((entry: { path: string }) => entry.path === 'config/app.yaml')).toBe(true);
  });

  it('`summarize --json` with a provider that names every secret file: the printed JSON and the log', async () => {
    openai.requests.length = 0;
    openai.enqueue({ body: chatCompletion({ text: GREEDY_PICK, model: 'm' }) });
    const env = { OPENAI_BASE_URL: openai.baseUrl };
    const { code, stdout, stderr } = await runCli(
      ['summarize', repo.root, '--max-files', '8', '--json', '--model', 'openai:m'],
      env,
    );
    expect(code).toBe(0);
    expect(openai.requests).toHaveLength(2);
    openai.requests.forEach((request, index) => expectNoSecret(`summarize openai request ${index}`, request.body));
    expectNoSecret('summarize --json stdout', stdout);
    expectNoSecret('summarize --json stderr', stderr);
    const structured = JSON.parse(stdout);
    expectReported(structured, structured.notes.map((note: string) => `Note: ${note}`).join('\n'), true);
  });

  it('`summarize --allow-secret-file` lets a named file back in, still redacted', async () => {
    const args = ['summarize', repo.root, '--json', '--quiet', '--allow-secret-file', '.env.production'];
    const { code, stdout } = await runCli(args);
    expect(code).toBe(0);
    expectNoSecret('summarize --allow-secret-file stdout', stdout);
    const structured = JSON.parse(stdout);
    const secret = structured.skipped.find((entry: { reason: string }) => entry.reason === 'secret_file');
    expect(secret.count).toBe(SECRET_NAMES.length - 1);
    expect(secret.examples).not.toContain('.env.production');
  });
});
