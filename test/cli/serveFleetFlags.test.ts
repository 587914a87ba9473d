/**
 * The fleet flags of `serve`. End to end on a real process (`dist/cli.js`): a store that is not there (fail
 * closed, /readyz), metrics on their own address, SIGTERM exits 0 after draining. In-process
 * (`main(argv, io)`): the usage errors and the help.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePorts } from '../../scripts/fleet/processes.js';
import { runCli } from '../helpers/cliIo.js';
import { makeSampleRepo, type FixtureRepo } from '../helpers/fixtureRepo.js';
import { startHttpServer } from '../helpers/processes.js';
import { mcpRequest, meta } from '../helpers/rawChannel.js';

const KEYS = `fleet1:${Buffer.alloc(32, 9).toString('base64')}`;
let repo: FixtureRepo;
beforeAll(async () => {
  repo = await makeSampleRepo();
});
afterAll(async () => {
  await repo.cleanup();
});

const call = (id: number, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'summarize_repo', arguments: {}, _meta: meta({ sampling: {} }), ...extra },
});

describe('serve fleet flags', () => {
  it('with its store unreachable: /readyz 503 naming it, MRTR rounds refused saying so, SIGTERM exits 0', async () => {
    // Chosen together: two probes one after another may get the same port, and metrics would then answer as the store.
    const [deadPort, metricsPort] = (await freePorts(2)) as [number, number];
    const server = await startHttpServer(
      [
        '--root',
        repo.root,
        '--model',
        'host',
        '--store',
        `redis://127.0.0.1:${deadPort}`,
        '--metrics',
        `127.0.0.1:${metricsPort}`,
      ],
      { MCP_MODEL_INPUT_STATE_KEYS: KEYS },
    );
    try {
      const origin = server.url.replace(/\/mcp$/, '');
      expect((await fetch(`${origin}/healthz`)).status).toBe(200);
      const ready = await fetch(`${origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        status: 'not_ready',
        checks: { keys: { ok: true }, store: { ok: false } },
      });
      // A first call needs no store (nothing to consume); its retry does, and is refused.
      const first = (await (await fetch(mcpRequest(server.url, call(1)))).json()) as any;
      expect(first.result.resultType).toBe('input_required');
      const pick = { pick_files: { role: 'assistant', content: { type: 'text', text: '["README.md"]' }, model: 'm' } };
      const retry = (await (
        await fetch(mcpRequest(server.url, call(2, { requestState: first.result.requestState, inputResponses: pick })))
      ).json()) as any;
      expect(retry.error).toMatchObject({ code: -32603 });
      expect(retry.error.message).toContain('request-state store is unreachable');
      expect(server.stderr()).toContain('unreachable');
      // Metrics live on their own address, not on the MCP one.
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toContain('mmi_state_rejections_total{reason="store_unavailable"} 1');
      expect((await fetch(`${origin}/metrics`)).status).toBe(404);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.stderr()).toContain('SIGTERM: draining');
  });

  const cli = (args: string[]) => runCli(args);

  it.each([
    [['serve', '--stdio', '--store', 'ftp://x'], '--store expects memory: or redis://host:port, not ftp:'],
    [['serve', '--stdio', '--metrics', '9464'], '--metrics applies to --http only'],
    [['serve', '--stdio', '--drain-timeout', '5'], '--drain-timeout applies to --http only'],
    [['serve', '--http', '0', '--instance-id', 'a.b'], "--instance-id expects 1-32 letters, digits, _ or -, got 'a.b'"],
    [['serve', '--http', '0', '--rate-limit', '0'], '--rate-limit must be an integer from 1 to 1000000'],
    [['serve', '--http', '0', '--metrics', 'x'], "--metrics expects [HOST:]PORT, got 'x'"],
  ])('%j is a usage error', async (args, message) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('--help documents the fleet flags and the operations endpoints', async () => {
    const { stdout } = await runCli(['serve', '--help']);
    for (const text of [
      '--store URL',
      '--rate-limit N',
      '--principal-token-budget N',
      '--metrics [HOST:]PORT',
      '--drain-timeout SECONDS',
      '--instance-id ID',
      'GET /readyz',
    ]) {
      expect(stdout).toContain(text);
    }
  });
});
