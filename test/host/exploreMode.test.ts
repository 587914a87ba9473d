/**
 * End to end across both halves of tools in sampling (SEP-1577): the host runtime, with a scripted
 * tool-using model, against our server in explore mode over HTTP (MRTR). The server runs the tool loop;
 * the host declares `sampling.tools`, shows every round's tools and calls in its approval, checks the
 * `tool_use`/`tool_result` pairing of each round it is asked and of each answer its model gives.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { summarizeRound } from '../../src/host/approval/roundSummary.js';
import { createHost } from '../../src/host/createHost.js';
import { isHostError, type HostError } from '../../src/host/hostError.js';
import { TIER_ATTRIBUTES } from '../../src/host/policies/modelPolicy.js';
import { toolPairingProblem } from '../../src/host/policies/toolPairing.js';
import { validateInputRequest } from '../../src/host/policies/validateRequest.js';
import { DEFAULT_REQUEST_LIMITS } from '../../src/host/policies/limits.js';
import { createRateLimiter } from '../../src/host/policies/rateLimit.js';
import { createScriptedModel, type ScriptedAnswers } from '../../src/models/scripted.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { createTestFront } from '../helpers/servers.js';
import { capturedAuditLog, recordingApprover } from './hostFixtures.js';

let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

async function explore(answers: ScriptedAnswers) {
  const front = createTestFront({ root: repo.root, model: 'host' });
  const model = createScriptedModel(answers);
  const approver = recordingApprover();
  const captured = await capturedAuditLog();
  const audit = captured.audit;
  const host = createHost({
    models: [{ id: 'scripted', model, ...TIER_ATTRIBUTES.balanced }],
    approver,
    audit,
    maxRounds: 20,
    rateLimiter: createRateLimiter({ capacity: 100, refillPerSecond: 100, maxWaitMs: 0 }),
  });
  const connection = await host.connect({
    kind: 'http',
    url: 'http://localhost/mcp',
    fetch: (url, init) => front.fetch(new Request(url, init)),
  });
  let error: HostError | undefined;
  let outcome: Awaited<ReturnType<typeof connection.callTool>> | undefined;
  try {
    outcome = await connection.callTool('summarize_repo', { mode: 'explore' });
  } catch (caught) {
    if (!isHostError(caught)) throw caught;
    error = caught;
  } finally {
    await connection.close();
    await audit.close();
    await front.close();
  }
  const lines = captured.lines();
  return { outcome, error, model, approver, lines, host };
}

describe('the host runtime against explore mode over MRTR', () => {
  it('runs the loop: sampling.tools declared, every round approved with its tools and calls, every pairing valid', async () => {
    const { outcome, error, model, approver, lines, host } = await explore({
      explore: [
        {
          text: 'Start at the top.',
          toolUse: [
            { name: 'list_directory', input: {} },
            { name: 'read_file', input: { path: 'README.md' } },
          ],
        },
        { toolUse: [{ name: 'search', input: { pattern: 'chart', path: 'src' } }] },
        'Sample Widget turns CSV files into charts.',
      ],
    });
    expect(error).toBeUndefined();
    expect(host.capabilities).toEqual({ sampling: { tools: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } });
    expect(outcome?.result.isError).not.toBe(true);
    expect(outcome?.rounds).toBe(3);
    expect(JSON.stringify(outcome?.result.structuredContent)).toContain('Sample Widget turns CSV files into charts.');

    // The approval saw every round, each offering the explore tools; the later ones with the calls made so far.
    expect(approver.rounds).toHaveLength(3);
    for (const round of approver.rounds) {
      expect(round.requests.map((request) => request.key)).toEqual(['explore']);
      expect(round.requests[0]?.params.tools?.map((tool) => tool.name)).toEqual([
        'list_directory',
        'read_file',
        'search',
      ]);
    }
    const third = summarizeRound(approver.rounds[2]!).body;
    expect(third).toContain('tools:     list_directory, read_file, search · choice auto');
    expect(third).toContain('calls:     3 so far: list_directory; read_file README.md; search "chart" in src');

    // What the server sent the model pairs every tool_use with one tool_result (the host checked it; so do we).
    expect(model.calls).toHaveLength(3);
    for (const call of model.calls) {
      const valid = validateInputRequest(
        { key: 'explore', method: 'sampling/createMessage', params: call.params },
        DEFAULT_REQUEST_LIMITS,
        { server: { name: 's', key: 'k' }, tool: 'summarize_repo', round: 1 },
      );
      expect(valid.method === 'sampling/createMessage' && toolPairingProblem(valid.params.messages)).toBeUndefined();
    }
    expect(model.calls[2]?.params.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(lines.filter((line) => line['decision'] === 'fulfilled').map((line) => line['toolUse'])).toEqual([
      'list_directory; read_file README.md',
      'search "chart" in src',
      undefined,
    ]);
  });

  it("stops its own model's call to a tool the server did not offer, before anything reaches the server", async () => {
    const { error, model } = await explore({
      explore: { toolUse: [{ name: 'write_file', input: { path: 'README.md', text: 'pwned' } }] },
    });
    expect(error?.code).toBe('response_invalid');
    expect(error?.message).toBe(
      'input "explore": the model answer calls tool "write_file", which the request did not offer',
    );
    expect(model.calls).toHaveLength(1);
  });
});
