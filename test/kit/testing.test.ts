/**
 * `testModelTool` (mcp-model-input/testing): explain_file against the five client profiles, with the client's model
 * scripted: the result, the rounds and the route each question took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import explainFile from '../../examples/explainFile.js';
import { testModelTool } from '../../src/entries/testing.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(() => repo.cleanup());

const args = { path: 'src/index.ts' };
const text = (result: { content: Array<{ type: string; text?: string }> } | undefined) => result?.content[0]?.text;

describe('testModelTool on the client profiles', () => {
  it('2026-07-28 with sampling: one MRTR round, the scripted answer, route host', async () => {
    const run = await testModelTool(explainFile, {
      client: 'mrtr-sampling',
      model: { explain: 'It exports chart().' },
      args,
      server: { root: repo.root },
    });
    expect(run.rounds).toEqual([{ requests: [{ key: 'explain', method: 'sampling/createMessage' }] }]);
    expect(text(run.result)).toBe('It exports chart().\n\n(answered by: host)');
    expect(run.routes.map((route) => route.route)).toEqual(['host']);
  });

  it('2026-07-28 with roots and elicitation only (Claude Code): the built-in model, and why', async () => {
    const run = await testModelTool(explainFile, { client: 'mrtr-no-sampling', args, server: { root: repo.root } });
    expect(run.rounds).toEqual([]);
    expect(text(run.result)).toContain('(answered by: builtin)');
    expect(run.routes).toEqual([
      expect.objectContaining({
        route: 'builtin',
        passed: ['host: the request did not declare the sampling capability'],
      }),
    ]);
  });

  it('2025-11-25 with sampling (VS Code): live sampling', async () => {
    const run = await testModelTool(explainFile, {
      client: 'legacy-sampling',
      model: () => 'live answer',
      args,
      server: { root: repo.root },
    });
    expect(text(run.result)).toBe('live answer\n\n(answered by: live)');
  });

  it('2025-11-25 without sampling (Claude Desktop, Cursor): the built-in model, with a note', async () => {
    const run = await testModelTool(explainFile, { client: 'legacy-no-sampling', args, server: { root: repo.root } });
    expect(run.result?.content.map((block) => (block.type === 'text' ? block.text : ''))).toContainEqual(
      expect.stringContaining('did not declare the sampling capability at initialize'),
    );
  });

  it('a user who declines every round: the call starts again without sampling and the server model answers', async () => {
    const run = await testModelTool(explainFile, { client: 'declines', args, server: { root: repo.root } });
    expect(run.rounds).toEqual([{ requests: [{ key: 'explain', method: 'sampling/createMessage' }], declined: true }]);
    expect(text(run.result)).toContain('(answered by: builtin)');
  });

  it('a server with the host alone: the profile without sampling gets -32021 naming the step', async () => {
    const run = await testModelTool(explainFile, {
      client: 'mrtr-no-sampling',
      args,
      server: { root: repo.root, models: 'host' },
    });
    expect(run.error?.code).toBe(-32021);
    expect(run.error?.message).toContain("step 'explain'");
  });
});
