/**
 * The explore loop's bounds, each ending the exploration the same way: the next request disables tools
 * (`toolChoice: none`) and the result says which bound ended it.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runFlow, type SealedFlow } from '../../../src/flows/engine.js';
import { createExploreFlow } from '../../../src/flows/summarizeRepo/explore/flow.js';
import type { ExploreBounds } from '../../../src/flows/summarizeRepo/explore/bounds.js';
import { summarizeRepoInput } from '../../../src/flows/summarizeRepo/schema.js';
import { silentLogger } from '../../../src/logger.js';
import { openRepository } from '../../../src/repo/index.js';
import { createEphemeralKeyRing, createStateCodec } from '../../../src/state/index.js';
import { makeTree, type FixtureRepo } from '../../helpers/fixtureRepo.js';
import { createToolScriptedModel, type ToolScriptedModel } from '../../helpers/toolModel.js';
import { firstCallContext } from '../../helpers/toolContext.js';

let repo: FixtureRepo;
beforeAll(async () => {
  const files: Record<string, string> = { 'README.md': '# Big\n' };
  for (let n = 0; n < 10; n++) files[`src/file${n}.ts`] = `${'// filler line of text\n'.repeat(400)}`;
  repo = await makeTree(files);
});
afterAll(async () => {
  await repo.cleanup();
});

/** A model that reads the next file every turn until tools are disabled. */
function reader(): ToolScriptedModel {
  return createToolScriptedModel((params, turn) =>
    params.toolChoice?.mode === 'none'
      ? { summary: 'Enough.' }
      : { calls: [{ name: 'read_file', input: { path: `src/file${turn % 10}.ts`, maxLines: 400 } }] },
  );
}

async function explore(model: ToolScriptedModel, bounds: Partial<ExploreBounds>, now?: () => number) {
  const flow = createExploreFlow({
    openRepo: () => openRepository(repo.root, { listing: 'walker' }),
    bounds,
    ...(now !== undefined && { now }),
  });
  const result = (await runFlow(flow, summarizeRepoInput.parse({ mode: 'explore' }), firstCallContext(), {
    codec: createStateCodec<SealedFlow<unknown>>({ keyRing: createEphemeralKeyRing() }),
    models: {
      spec: 'test',
      sourceFor: () => ({ kind: 'server', model }),
      budget: { maxCalls: 50, maxTokens: 10_000_000 },
    },
    logger: silentLogger,
  })) as CallToolResult;
  return result.structuredContent as Record<string, any>;
}

describe('explore bounds', () => {
  it('bytes: once the results fill the budget, tools are disabled', async () => {
    const model = reader();
    const out = await explore(model, { bytes: 20_000, rounds: 20, toolCalls: 20 });
    expect(out['exploration'].endedBy).toBe('bytes');
    expect(out['exploration'].bytes).toBeLessThanOrEqual(20_000);
    // Each result is capped at 8 KiB: three reads fill 20,000 bytes.
    expect(model.requests.map((params) => params.toolChoice?.mode)).toEqual(['auto', 'auto', 'auto', 'none']);
  });

  it('rounds: the last round is the final answer', async () => {
    const model = reader();
    const out = await explore(model, { rounds: 3 });
    expect(out['exploration']).toMatchObject({ endedBy: 'rounds', rounds: 3 });
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]!.toolChoice).toEqual({ mode: 'none' });
  });

  it('time: past the wall-time bound the next request asks for the answer', async () => {
    let clock = 0;
    const model = createToolScriptedModel((params, turn) => {
      clock += 40_000;
      return params.toolChoice?.mode === 'none'
        ? { summary: 'In time.' }
        : { calls: [{ name: 'list_directory', input: { path: turn === 0 ? '' : 'src' } }] };
    });
    const out = await explore(model, { timeMs: 60_000, rounds: 10 }, () => clock);
    expect(out['exploration'].endedBy).toBe('time');
    expect(model.requests).toHaveLength(3);
  });

  it('the prompt states the bounds to the model', async () => {
    const model = reader();
    await explore(model, { toolCalls: 5, rounds: 4, bytes: 32_768 });
    const prompt = JSON.stringify(model.requests[0]!.messages[0]);
    expect(prompt).toContain('at most 5 tool calls in 3 rounds and about 32 KiB of tool results');
  });
});
