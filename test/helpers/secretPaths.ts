/**
 * The paths by which repository text reaches a model, each run on one repository with a model that asks for
 * everything: what each path sent to a model (`prompts`, as JSON) and what it returned (`output`). Used by
 * test/flows/secretCorpus.test.ts (every format absent from every path) and bench/secretPaths.ts (the coverage table
 * docs/security.md points to).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { runLocalSummarize } from '../../src/app/localSummarize.js';
import { createModelInputHttpFront, createModelInputServer } from '../../src/app/modelInputServer.js';
import type { SealedFlow } from '../../src/flows/engine.js';
import { runSummarizeRepo } from '../../src/app/summarizeRepoRun.js';
import { summarizeRepoInput } from '../../src/flows/summarizeRepo/schema.js';
import { silentLogger } from '../../src/logger.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { ANONYMOUS } from '../../src/server/principals.js';
import { createEphemeralKeyRing, createStateCodec } from '../../src/state/index.js';
import { firstCallContext } from './toolContext.js';
import { createToolScriptedModel } from './toolModel.js';

export interface PathRun {
  /** Everything the path sent to a model, as JSON. */
  prompts: string;
  /** The result, as JSON. */
  output: string;
}

export type SecretPath = 'builtin' | 'provider' | 'mrtr_pick' | 'mrtr_explore' | 'legacy';

export const SECRET_PATHS: readonly SecretPath[] = ['builtin', 'provider', 'mrtr_pick', 'mrtr_explore', 'legacy'];

export interface PathRepo {
  root: string;
  /** The files a model asks for (every one). */
  files: readonly string[];
  /** A file whose line 2 lies inside a private-key block (explore reads it from there). */
  keyFile: string;
  /** The directory explore searches (`fmt:` starts every format's line). */
  searchDir: string;
}

const args = (files: readonly string[]) => ({ maxFiles: Math.min(20, files.length) });

async function builtin(repo: PathRepo): Promise<PathRun> {
  const result = await runLocalSummarize({ root: repo.root, args: args(repo.files), logger: silentLogger });
  return { prompts: '', output: JSON.stringify(result) };
}

async function provider(repo: PathRepo): Promise<PathRun> {
  const model = createScriptedModel({ pick_files: JSON.stringify(repo.files), summary: 'A summary.' });
  const result = await runSummarizeRepo(
    {
      root: repo.root,
      codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
      models: { spec: 'test', sourceFor: () => ({ kind: 'server', model }) },
      logger: silentLogger,
      surveyCache: false,
    },
    summarizeRepoInput.parse(args(repo.files)),
    firstCallContext(),
  );
  return { prompts: JSON.stringify(model.calls), output: JSON.stringify(result) };
}

async function mrtrPick(repo: PathRepo): Promise<PathRun> {
  const host = createScriptedModel({ pick_files: JSON.stringify(repo.files), summary: 'A summary.' });
  const result = await runLocalSummarize({
    root: repo.root,
    args: args(repo.files),
    logger: silentLogger,
    models: parseModelSpec('host'),
    model: host,
  });
  return { prompts: JSON.stringify(host.calls), output: JSON.stringify(result) };
}

async function mrtrExplore(repo: PathRepo): Promise<PathRun> {
  const host = createToolScriptedModel((params, turn) => {
    if (params.toolChoice?.mode === 'none') return { summary: 'A summary.' };
    if (turn === 0) {
      return {
        calls: [
          { name: 'read_file', input: { path: repo.keyFile, startLine: 2, maxLines: 5 } },
          ...repo.files.slice(0, 7).map((path) => ({ name: 'read_file', input: { path } })),
        ],
      };
    }
    if (turn === 1) {
      return {
        calls: [
          { name: 'search', input: { pattern: 'fmt:', path: repo.searchDir } },
          { name: 'search', input: { pattern: '(?i)(key|token|secret|password)', regex: true, path: repo.searchDir } },
          ...repo.files.slice(7, 9).map((path) => ({ name: 'read_file', input: { path } })),
        ],
      };
    }
    return { summary: 'A summary.' };
  });
  const result = await runLocalSummarize({
    root: repo.root,
    args: { mode: 'explore' },
    logger: silentLogger,
    models: parseModelSpec('host'),
    model: host,
  });
  return { prompts: JSON.stringify(host.requests), output: JSON.stringify(result) };
}

async function legacy(repo: PathRepo): Promise<PathRun> {
  const server = createModelInputServer({
    root: repo.root,
    models: parseModelSpec('host'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: ANONYMOUS,
  });
  const front = createModelInputHttpFront(server, {
    logger: silentLogger,
    allowedHosts: ['localhost'],
    allowedOrigins: ['http://localhost'],
  });
  const samples: unknown[] = [];
  const client = new Client({ name: 'legacy-greedy', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    samples.push(request.params);
    const picking = samples.length === 1;
    const text = picking ? JSON.stringify(repo.files) : 'A summary.';
    return { role: 'assistant' as const, content: { type: 'text' as const, text }, model: 'legacy-host' };
  });
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: (url, init) => front.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'summarize_repo', arguments: args(repo.files) });
    return { prompts: JSON.stringify(samples), output: JSON.stringify(result) };
  } finally {
    await client.close();
    await front.close();
  }
}

export function runPath(path: SecretPath, repo: PathRepo): Promise<PathRun> {
  switch (path) {
    case 'builtin':
      return builtin(repo);
    case 'provider':
      return provider(repo);
    case 'mrtr_pick':
      return mrtrPick(repo);
    case 'mrtr_explore':
      return mrtrExplore(repo);
    case 'legacy':
      return legacy(repo);
  }
}
