/**
 * explain_file (examples/explainFile.ts) on every route of the kit, driven as the server drives a tool: provider
 * inline, the host's model over MRTR, live sampling (2025-11-25), the built-in model, fallback on a missing
 * capability, on a declined round and on a provider failure, and redaction of what any model is sent.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import explainFile from '../../examples/explainFile.js';
import { createModelKit } from '../../src/kit/kit.js';
import type { RouteRecord } from '../../src/kit/kit.js';
import { ModelProviderError } from '../../src/models/providerError.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { makeTree, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { callOnce, callToEnd, fakeModel, hostAnswer, isInputRequired, planOf, textOf } from './helpers.js';

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeTree({
    'src/chart.ts':
      '// Charts CSV rows.\nexport function chart(rows: string[]): string {\n  return rows.join("|");\n}\n',
    'src/config.ts': `export const TOKEN = '${GITHUB_TOKEN}';\n`,
  });
});
afterAll(() => repo.cleanup());

const SAMPLING = { sampling: {} };

describe('explain_file on every route', () => {
  it('built-in: no key, no network, answered inline', async () => {
    const kit = createModelKit({ root: repo.root });
    const result = await callOnce(explainFile, kit, { path: 'src/chart.ts' });
    expect(isInputRequired(result)).toBe(false);
    expect(textOf(result as never)).toContain('export function chart');
    expect(textOf(result as never)).toContain('(answered by: builtin)');
  });

  it('provider: a server-owned model answers inline, with the step preferences and no state', async () => {
    const model = fakeModel('openai:test', () => 'It charts rows.');
    const kit = createModelKit({ root: repo.root, models: planOf({ kind: 'server', model }) });
    const result = await callOnce(explainFile, kit, { path: 'src/chart.ts' }, { capabilities: SAMPLING });
    expect(textOf(result as never)).toContain('It charts rows.\n\n(answered by: provider)');
    expect(model.prompts[0]).toContain('Explain src/chart.ts.');
  });

  it('host (2026-07-28): one input_required round with sealed state, then the answer', async () => {
    const kit = createModelKit({ root: repo.root, models: 'host' });
    const seen: unknown[] = [];
    const { result, rounds } = await callToEnd(
      explainFile,
      kit,
      { path: 'src/chart.ts' },
      (key, request) => {
        seen.push([key, request]);
        return hostAnswer('Host says: it charts.');
      },
      { capabilities: SAMPLING },
    );
    expect(rounds).toHaveLength(1);
    expect(typeof rounds[0]!.requestState).toBe('string');
    expect(rounds[0]!.requestState).toMatch(/^mmi1\./);
    expect(seen[0]).toMatchObject([
      'explain',
      { method: 'sampling/createMessage', params: { maxTokens: 600, modelPreferences: { intelligencePriority: 0.8 } } },
    ]);
    expect(textOf(result)).toBe('Host says: it charts.\n\n(answered by: host)');
  });

  it('live sampling (2025-11-25): the same round, answered through the legacy shim, is routed live', async () => {
    const kit = createModelKit({ root: repo.root, models: 'host' });
    const { result } = await callToEnd(explainFile, kit, { path: 'src/chart.ts' }, () => hostAnswer('Live.'), {
      capabilities: SAMPLING,
      context: { maxSamples: 4 },
    });
    expect(textOf(result)).toBe('Live.\n\n(answered by: live)');
  });

  it('fallback on a missing capability: host,builtin serves a client without sampling inline', async () => {
    const routes: RouteRecord[] = [];
    const kit = createModelKit({ root: repo.root, models: 'host,builtin', events: { routed: (r) => routes.push(r) } });
    const result = await callOnce(explainFile, kit, { path: 'src/chart.ts' }, { capabilities: {} });
    expect(textOf(result as never)).toContain('(answered by: builtin)');
    expect(routes).toEqual([
      {
        tool: 'explain_file',
        step: 'explain',
        route: 'builtin',
        source: 'builtin',
        passed: ['host: the request did not declare the sampling capability'],
      },
    ]);
  });

  it('fallback on a declined round (2025-11-25 refusal): the built-in model answers, and the result says why', async () => {
    const kit = createModelKit({ root: repo.root, models: 'host,builtin' });
    const refusal = "the client refused the sampling request for 'explain' (error -1: User declined)";
    const result = await callOnce(
      explainFile,
      kit,
      { path: 'src/chart.ts' },
      {
        capabilities: {},
        context: { hostUnavailable: refusal, maxSamples: 4 },
      },
    );
    const text = textOf(result as never);
    expect(text).toContain('(answered by: builtin)');
    expect(text).toContain(`Note: 'explain' was answered by the built-in model (host: ${refusal}).`);
  });

  it('fallback on a provider failure: openai:M,builtin', async () => {
    const model = fakeModel(
      'openai:down',
      () => new ModelProviderError('unavailable', 'openai:down: 503', { model: 'openai:down', hint: 'try later' }),
    );
    const kit = createModelKit({
      root: repo.root,
      models: planOf({ kind: 'server', model }, { kind: 'builtin' }),
    });
    const result = await callOnce(explainFile, kit, { path: 'src/chart.ts' });
    expect(textOf(result as never)).toContain('(answered by: builtin)');
    expect(textOf(result as never)).toContain(
      "Note: 'explain' was answered by the built-in model (openai:down: it failed",
    );
  });

  it('no source: -32021 naming the step and what would serve it', async () => {
    const kit = createModelKit({ root: repo.root, models: 'host' });
    const error = await callOnce(explainFile, kit, { path: 'src/chart.ts' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32021);
    expect((error as Error).message).toContain("step 'explain'");
    expect((error as Error).message).toContain('--model explain_file.explain=host,builtin');
  });

  it('a per-step plan without this step: an isError result naming it', async () => {
    const kit = createModelKit({ root: repo.root, models: parseModelSpec('pick=builtin,summary=builtin') });
    const result = await callOnce(explainFile, kit, { path: 'src/chart.ts' });
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result as never)).toContain("no model can answer step 'explain'");
    expect(textOf(result as never)).toContain('--model explain_file.explain=');
  });

  it('TOOL.STEP=SPEC in the grammar routes just that step', async () => {
    const kit = createModelKit({ root: repo.root, models: 'pick=builtin,summary=builtin,explain_file.explain=host' });
    const outcome = await callOnce(explainFile, kit, { path: 'src/chart.ts' }, { capabilities: SAMPLING });
    expect(isInputRequired(outcome)).toBe(true);
  });

  it('redaction: a secret in the file never reaches any model', async () => {
    const model = fakeModel('openai:test', () => 'ok');
    const kit = createModelKit({ root: repo.root, models: planOf({ kind: 'server', model }) });
    await callOnce(explainFile, kit, { path: 'src/config.ts' });
    expect(model.prompts[0]).toContain('[redacted: GitHub token]');
    expect(model.prompts[0]).not.toContain(GITHUB_TOKEN);
    const host = createModelKit({ root: repo.root, models: 'host' });
    const round = await callOnce(explainFile, host, { path: 'src/config.ts' }, { capabilities: SAMPLING });
    expect(JSON.stringify(round)).not.toContain(GITHUB_TOKEN);
  });

  it('a path outside the root or missing is the tool error, with no model asked', async () => {
    const model = fakeModel('openai:test', () => 'ok');
    const kit = createModelKit({ root: repo.root, models: planOf({ kind: 'server', model }) });
    for (const path of ['../outside.txt', 'nope.ts']) {
      const result = await callOnce(explainFile, kit, { path });
      expect(result).toMatchObject({ isError: true });
    }
    expect(model.prompts).toEqual([]);
  });
});
