/**
 * The product's server with the built-in model, behind a stdio front the test feeds and reads in-process (two
 * PassThrough streams), as `serve --stdio` wires it; and the warm-up's temporary trees present now.
 */
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';

import { createModelInputServer, type ModelInputServer } from '../../src/app/modelInputServer.js';
import { WARM_UP_DIR_PREFIX } from '../../src/app/warmUp.js';
import { silentLogger } from '../../src/logger.js';
import { parseModelSpec } from '../../src/models/sources.js';
import { createEphemeralKeyRing } from '../../src/state/index.js';
import { meta } from './rawChannel.js';

export interface StdioFrontStreams {
  server: ModelInputServer;
  input: PassThrough;
  output: PassThrough;
  /** Everything the front wrote so far. */
  written(): string;
}

/** A 2026-07-28-only server on `root` (built-in model, per-process keys) and the two streams of its stdio front. */
export function builtinServerStreams(root: string): StdioFrontStreams {
  const server = createModelInputServer({
    root,
    models: parseModelSpec('builtin'),
    keyRing: createEphemeralKeyRing(),
    logger: silentLogger,
    defaultPrincipal: 'local',
    legacy: false,
  });
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString()));
  return { server, input, output, written: () => written };
}

/** One JSON-RPC request line with a 2026-07-28 envelope. */
export const requestLine = (id: number, method: string, params: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } })}\n`;

/** The warm-up's synthetic trees present in the temporary directory now. */
export async function warmUpDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith(WARM_UP_DIR_PREFIX));
}
