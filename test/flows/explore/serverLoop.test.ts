/**
 * The explore loop inline, on a server-owned model (a scripted tool-using model) and on the built-in explorer: a
 * sensible exploration, hostile tool calls, a model that loops or never stops, and tool_use ids that do not pair.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SealedFlow } from '../../../src/flows/engine.js';
import { runSummarizeRepo, type SummarizeRepoOptions } from '../../../src/app/summarizeRepoRun.js';
import { summarizeRepoInput } from '../../../src/flows/summarizeRepo/schema.js';
import type { ToolContext } from '../../../src/flows/tool.js';
import { silentLogger } from '../../../src/logger.js';
import type { CompletionModel } from '../../../src/models/modelSource.js';
import { parseModelSpec, type ModelPlan } from '../../../src/models/sources.js';
import { createEphemeralKeyRing, createStateCodec } from '../../../src/state/index.js';
import { makeSampleRepo, makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';
import { createToolScriptedModel, lastResults } from '../../helpers/toolModel.js';
import { firstCallContext } from '../../helpers/toolContext.js';

let repo: FixtureRepo & { outside: FixtureRepo };
beforeAll(async () => {
  repo = await makeSampleRepo();
  await writeFile(join(repo.root, '.env'), 'API_KEY=sk-live-abcdefabcdef\n');
  await writeFile(
    join(repo.root, 'id_rsa'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  await mkdir(join(repo.root, 'data'));
  await writeFile(join(repo.root, 'data', 'huge.log'), 'y'.repeat(10 * 1024 * 1024));
  await symlink(repo.outside.root, join(repo.root, 'outside-dir'));
});
afterAll(async () => {
  await repo.cleanup();
});

function ctx(capabilities: ToolContext['clientCapabilities'] = {}): ToolContext {
  return firstCallContext({ clientCapabilities: capabilities });
}

function planOf(model: CompletionModel): ModelPlan {
  return { spec: 'test', sourceFor: () => ({ kind: 'server', model }) };
}

function optionsOf(models: ModelPlan, root = repo.root): SummarizeRepoOptions {
  return {
    root,
    codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
    models,
    logger: silentLogger,
    surveyCache: false,
    repository: { listing: 'walker' },
  };
}

async function explore(models: ModelPlan, extra: Record<string, unknown> = {}): Promise<CallToolResult> {
  const args = summarizeRepoInput.parse({ mode: 'explore', ...extra });
  return (await runSummarizeRepo(optionsOf(models), args, ctx())) as CallToolResult;
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, any>;
const allText = (result: CallToolResult) =>
  JSON.stringify(result) + '\n' + result.content.map((block) => ('text' in block ? block.text : '')).join('\n');

describe('explore on a server-owned model', () => {
  it('runs a sensible exploration: tools offered with toolChoice auto, results paired by id, then the summary', async () => {
    const model = createToolScriptedModel((_params, turn) =>
      turn === 0
        ? { text: 'Looking around.', calls: [{ name: 'list_directory', input: {} }] }
        : turn === 1
          ? {
              calls: [
                { name: 'read_file', input: { path: 'README.md' } },
                { name: 'read_file', input: { path: 'src/cli.ts' } },
              ],
            }
          : { summary: 'Sample Widget turns CSV into charts; start at src/cli.ts.' },
    );
    const result = await explore(planOf(model));
    expect(result.isError).toBe(false);
    expect(model.requests).toHaveLength(3);
    for (const params of model.requests) {
      expect(params.tools?.map((tool) => tool.name)).toEqual(['list_directory', 'read_file', 'search']);
      expect(params.toolChoice).toEqual({ mode: 'auto' });
    }
    // The first prompt carries the whole-repository facts, as the pick and summary prompts do; so does the result.
    const opening = model.requests[0]!.messages[0]!.content;
    const openingText = (Array.isArray(opening) ? opening : [opening])
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n');
    expect(openingText).toMatch(/^Repository facts \(computed from the whole listing of \d+ files/m);
    expect(openingText).toMatch(/^- Main language: TypeScript$/m);
    // Round 2 carries the rebuilt conversation: prompt, the assistant's tool_use, a user message of tool_results only.
    const second = model.requests[1]!;
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastResults(second)).toEqual([expect.objectContaining({ toolUseId: 't0_0', isError: false })]);
    expect(lastResults(second)[0]!.text).toContain('src/  (2 files)');
    const third = lastResults(model.requests[2]!);
    expect(third.map((result) => result.toolUseId)).toEqual(['t1_0', 't1_1']);
    expect(third[0]!.text).toContain('Sample Widget turns CSV files into charts');
    const out = structured(result);
    expect(out['mode']).toBe('explore');
    expect(out['facts']?.mix.main).toEqual({ language: 'TypeScript', of: 'code' });
    expect(out['summary']).toContain('Sample Widget');
    expect(out['picked']).toEqual(['README.md', 'src/cli.ts']);
    expect(out['exploration']).toMatchObject({ endedBy: 'model', rounds: 3 });
    expect(out['exploration'].calls.map((call: { tool: string }) => call.tool)).toEqual([
      'list_directory',
      'read_file',
      'read_file',
    ]);
    expect(out['exploration'].calls[1].bytes).toBeGreaterThan(0);
    expect(
      result.content.some((block) => 'text' in block && block.text.startsWith('Note: Explored with 3 tool calls')),
    ).toBe(true);
  });

  it('answers hostile calls with isError tool results and never shows what lies outside or a secret', async () => {
    const hostile = [
      { name: 'read_file', input: { path: '../../etc/passwd' } },
      { name: 'read_file', input: { path: '/etc/passwd' } },
      { name: 'read_file', input: { path: 'escape.txt' } },
      { name: 'list_directory', input: { path: 'outside-dir' } },
      { name: 'read_file', input: { path: '.env' } },
      { name: 'read_file', input: { path: 'id_rsa' } },
      { name: 'read_file', input: { path: 'data/huge.log', maxLines: 400 } },
      { name: 'read_file', input: { path: 'README.md', maxLines: 100000 } },
    ];
    const model = createToolScriptedModel((_params, turn) =>
      turn === 0 ? { calls: hostile } : { summary: 'Done looking.' },
    );
    const result = await explore(planOf(model));
    expect(result.isError).toBe(false);
    const results = lastResults(model.requests[1]!);
    expect(results).toHaveLength(hostile.length);
    expect(results.every((entry) => entry.isError)).toBe(true);
    expect(results.map((entry) => entry.toolUseId)).toEqual(hostile.map((_, n) => `t0_${n}`));
    const seen = JSON.stringify(model.requests) + allText(result);
    expect(seen).not.toContain('outside the root\n');
    expect(seen).not.toContain('sk-live-abcdefabcdef');
    expect(seen).not.toContain('yyyyyyyy');
    expect(structured(result)['exploration'].calls.map((call: { error?: string }) => call.error)).toEqual([
      'outside_root',
      'outside_root',
      'symlink_outside_root',
      'symlink_outside_root',
      'secret_file',
      'secret_file',
      'too_large',
      'invalid',
    ]);
  });

  it('ends a model that lists the same directory forever: repeats are refused, then tools are disabled', async () => {
    const model = createToolScriptedModel((params) =>
      params.toolChoice?.mode === 'none'
        ? { summary: 'A widget.' }
        : { calls: [{ name: 'list_directory', input: { path: 'src' } }] },
    );
    const result = await explore(planOf(model));
    expect(result.isError).toBe(false);
    const out = structured(result)['exploration'];
    expect(out.endedBy).toBe('repeats');
    expect(out.calls.filter((call: { error?: string }) => call.error === 'repeated')).toHaveLength(3);
    expect(model.requests.at(-1)!.toolChoice).toEqual({ mode: 'none' });
    expect(model.requests.at(-1)!.systemPrompt).toContain('Tools are now disabled');
  });

  it('ends a model that never stops calling tools: tool-call bound, one final request, then the built-in fallback', async () => {
    let n = 0;
    const model = createToolScriptedModel(() => ({
      calls: [0, 1, 2, 3].map(() => ({ name: 'search', input: { pattern: `p${n++}` } })),
    }));
    const result = await explore(planOf(model));
    expect(result.isError).toBe(false);
    const out = structured(result);
    expect(out['exploration'].endedBy).toBe('tool_calls');
    expect(out['exploration'].calls).toHaveLength(12);
    // 3 exploring turns, the final request (toolChoice none) and its one repair: never more.
    expect(model.requests).toHaveLength(5);
    expect(model.requests.slice(3).every((params) => params.toolChoice?.mode === 'none')).toBe(true);
    expect(out['model']).toBe('mcp-model-input/builtin-heuristic');
    expect(out['notes'].join(' ')).toContain('called tools after tools were disabled');
  });

  it.each([
    ['a tool_use without an id', [{ name: 'list_directory', input: {}, id: '' }]],
    [
      'repeated ids',
      [
        { name: 'list_directory', input: {}, id: 'same' },
        { name: 'read_file', input: { path: 'README.md' }, id: 'same' },
      ],
    ],
  ])('treats %s as an unusable answer: one repair, then the fallback', async (_what, calls) => {
    const model = createToolScriptedModel(() => ({ calls }));
    const result = await explore(planOf(model));
    expect(result.isError).toBe(false);
    expect(model.requests).toHaveLength(2);
    expect(structured(result)['notes'].join(' ')).toMatch(/no usable id|used twice/);
    expect(structured(result)['exploration'].calls).toEqual([]);
  });

  it('refuses a server-owned model that cannot use tools, before any work', async () => {
    const model = createToolScriptedModel(() => ({ summary: 'x' }), { usesTools: false, name: 'plain' });
    const result = await explore(planOf(model));
    expect(result.isError).toBe(true);
    expect(allText(result)).toContain('plain cannot use tools in sampling');
    expect(model.requests).toHaveLength(0);
  });
});

describe('explore on the built-in explorer', () => {
  it('reads the README and manifests, then the entry points, then summarizes them', async () => {
    const result = await explore(parseModelSpec('builtin'));
    expect(result.isError).toBe(false);
    const out = structured(result);
    expect(out['mode']).toBe('explore');
    expect(out['exploration'].endedBy).toBe('model');
    expect(
      out['exploration'].calls.map((call: { tool: string; target: string }) => `${call.tool} ${call.target}`),
    ).toEqual([
      'list_directory .',
      'read_file README.md:1+200',
      'read_file package.json:1+200',
      'read_file src/cli.ts:1+120',
      'read_file src/index.ts:1+120',
    ]);
    expect(out['picked']).toEqual(['README.md', 'package.json', 'src/cli.ts', 'src/index.ts']);
    expect(out['summary']).toContain('sample-widget');
    expect(out['exploration'].rounds).toBe(4);
  });

  it('keeps the default pick mode unchanged', async () => {
    const args = summarizeRepoInput.parse({});
    const result = (await runSummarizeRepo(optionsOf(parseModelSpec('builtin')), args, ctx())) as CallToolResult;
    expect(structured(result)['mode']).toBe('pick');
    expect(structured(result)['exploration']).toBeUndefined();
  });

  it('explores a sub-directory only', async () => {
    const tree = await makeTree({
      'README.md': '# top\n',
      'pkg/README.md': '# Pkg\n\nThe pkg part.\n',
      'pkg/main.py': 'print(1)\n',
    });
    try {
      const args = summarizeRepoInput.parse({ mode: 'explore', path: 'pkg' });
      const result = (await runSummarizeRepo(
        optionsOf(parseModelSpec('builtin'), tree.root),
        args,
        ctx(),
      )) as CallToolResult;
      expect(result.isError).toBe(false);
      expect(structured(result)['picked']).toContain('pkg/README.md');
      expect(structured(result)['picked']).not.toContain('README.md');
    } finally {
      await tree.cleanup();
    }
  });
});

describe('explore under a per-step model plan', () => {
  it('runs on the summary step source (pick=…,summary=builtin)', async () => {
    const result = await explore(parseModelSpec('pick=host,summary=builtin'));
    expect(result.isError).toBe(false);
    expect(structured(result)['model']).toBe('mcp-model-input/builtin-heuristic');
    expect(structured(result)['exploration'].calls.length).toBeGreaterThan(0);
  });
});
