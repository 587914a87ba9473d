/**
 * `mcp-model-input/host` as a package user imports it: through package.json `exports` (the built
 * dist/), a host assembled from the public names only, talking to our server.
 */
import { describe, expect, it } from 'vitest';

import type * as HostModule from '../../src/entries/host.js';
import { createTestFront } from '../helpers/servers.js';
import { makeSampleRepo } from '../helpers/fixtureRepo.js';

describe('mcp-model-input/host', () => {
  it('resolves through the package exports and runs a call from public names only', async () => {
    // A variable specifier: the typecheck runs before dist/ exists; the test runs after it is built.
    const specifier = 'mcp-model-input/host';
    const host = (await import(specifier)) as typeof HostModule;
    expect('default' in host).toBe(false);
    const repo = await makeSampleRepo();
    const front = createTestFront({ root: repo.root });
    const models = await host.parseHostModelSpec('builtin=cheap');
    const runtime = host.createHost({
      models,
      approver: await host.createApprover(host.parseApprovalMode('auto'), {}),
      rateLimiter: host.createRateLimiter({ capacity: 10, refillPerSecond: 10, maxWaitMs: 0 }),
    });
    // sampling.tools only when the model can use tools.
    expect(runtime.capabilities).toEqual({
      sampling: models[0]?.model.usesTools === true ? { tools: {} } : {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    const connection = await runtime.connect({
      kind: 'http',
      url: 'http://localhost/mcp',
      fetch: (url, init) => front.fetch(new Request(url, init)),
    });
    try {
      const outcome = await connection.callTool('summarize_repo', {});
      expect(outcome.rounds).toBe(2);
      expect(outcome.result.isError).not.toBe(true);
    } finally {
      await connection.close();
      await front.close();
      await repo.cleanup();
    }
  });
});
