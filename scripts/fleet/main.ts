/**
 * `npm run fleet -- --instances N [--root DIR] [-- serve flags…]`: redis-server, N `serve` instances
 * and nginx on loopback ports; prints the endpoint; stops everything it started on Ctrl-C or SIGTERM.
 */
import { parseArgs } from 'node:util';

import { missingFleetBinaries, startFleet } from './startFleet.js';

const USAGE = `Usage: npm run fleet -- [--instances N] [--root DIR] [--metrics] [-- SERVE_FLAGS...]

Starts redis-server, N instances of 'mcp-model-input serve --http' (shared state keys, --store on that
Redis) and nginx in front (round-robin for 2026-07-28; 2025-11-25 sessions back to their instance), all
on 127.0.0.1, and prints the endpoint. Ctrl-C or SIGTERM stops everything it started.

  --instances N   instances behind nginx, 1-16 (default 2)
  --root DIR      the repository the instances serve (default: the current directory)
  --metrics       each instance also serves /metrics on a port of its own (printed)
  -- FLAGS        passed to every instance, e.g. -- --model host --rate-limit 60`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      instances: { type: 'string', default: '2' },
      root: { type: 'string', default: process.cwd() },
      metrics: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const instances = Number(values.instances);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
    console.error(`fleet: --instances must be 1-16, got '${values.instances}'`);
    return 2;
  }
  const missing = missingFleetBinaries();
  if (missing.length > 0) {
    console.error(`fleet: ${missing.join(' and ')} not found: apt-get install -y ${missing.join(' ')}`);
    return 1;
  }
  const fleet = await startFleet({
    instances,
    root: values.root,
    serveArgs: positionals,
    metrics: values.metrics === true,
    onProgress: (line) => console.error(`fleet: ${line}`),
  });
  for (const instance of fleet.instances) {
    if (instance.metricsUrl !== undefined) console.error(`fleet: ${instance.id} metrics at ${instance.metricsUrl}`);
  }
  console.log(`MCP endpoint: ${fleet.endpoint}`);
  console.error('fleet: running; Ctrl-C or SIGTERM stops everything');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  console.error('fleet: stopping');
  await fleet.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`fleet: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
