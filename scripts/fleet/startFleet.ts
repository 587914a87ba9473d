/**
 * A fleet on this machine: redis-server, N `serve --http` instances sharing the state keys and the
 * store, and nginx in front (see nginxConfig.ts). Everything lives in one temporary directory and on
 * free loopback ports; `stop()` ends all of it (also what `startFleet` had started when it fails).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { instanceId, nginxConfig } from './nginxConfig.js';
import { accepts, freePort, freePorts, hasBinary, startProcess, stopAll, type Started } from './processes.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface FleetInstance {
  readonly id: string;
  readonly port: number;
  /** The instance's own MCP endpoint (bypassing nginx). */
  readonly url: string;
  /** `http://127.0.0.1:PORT/metrics` when the fleet runs with metrics. */
  readonly metricsUrl?: string;
  readonly process: Started;
}

export interface FleetOptions {
  instances: number;
  /** The repository every instance serves. */
  root: string;
  /** More `serve` flags for every instance (`--model`, `--rate-limit`, `--tokens-file`, …). */
  serveArgs?: readonly string[];
  /** Each instance also serves `/metrics` on a port of its own. */
  metrics?: boolean;
  /** Put nginx in front (default true); without it `endpoint` is instance 0's. */
  balancer?: boolean;
  /** Seconds `serve --drain-timeout` waits on SIGTERM (default: serve's own). */
  drainTimeoutSeconds?: number;
  /** Called with each line of progress (`npm run fleet` prints them). */
  onProgress?: (line: string) => void;
}

export interface Fleet {
  /** The balancer's MCP endpoint: what clients use. */
  readonly endpoint: string;
  readonly redisUrl: string;
  readonly instances: readonly FleetInstance[];
  readonly redis: Started;
  readonly nginx?: Started;
  readonly dir: string;
  /** Starts instance `index` again (after a crash) on its old port. */
  restart(index: number): Promise<FleetInstance>;
  stop(): Promise<void>;
}

/** The Debian binaries a fleet needs that are missing from PATH. */
export function missingFleetBinaries(): string[] {
  return ['redis-server', 'nginx'].filter((name) => !hasBinary(name));
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mmi-fleet-'));
  const started: Started[] = [];
  const progress = options.onProgress ?? (() => {});
  try {
    const redisPort = await freePort();
    const redis = await startProcess(
      'redis-server',
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      /Ready to accept connections/,
    );
    started.push(redis);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    progress(`redis-server on ${redisUrl}`);

    const keysFile = path.join(dir, 'state-keys');
    await writeFile(keysFile, `fleet:${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    // All at once: ports chosen one by one, each released before the next, could repeat.
    const chosen = await freePorts(1 + options.instances * (options.metrics ? 2 : 1));
    const balancerPort = chosen[0] as number;
    const ports = chosen.slice(1, 1 + options.instances);
    const metricsPorts = options.metrics ? chosen.slice(1 + options.instances) : [];

    const startInstance = async (index: number): Promise<FleetInstance> => {
      const port = ports[index] as number;
      const metricsPort = metricsPorts[index];
      const args = [
        CLI,
        'serve',
        '--http',
        `127.0.0.1:${port}`,
        '--root',
        options.root,
        '--store',
        redisUrl,
        '--state-keys-file',
        keysFile,
        '--instance-id',
        instanceId(index),
        '--allow-host',
        `127.0.0.1:${balancerPort}`,
        '--allow-host',
        `localhost:${balancerPort}`,
        ...(metricsPort === undefined ? [] : ['--metrics', `127.0.0.1:${metricsPort}`]),
        ...(options.drainTimeoutSeconds === undefined ? [] : ['--drain-timeout', String(options.drainTimeoutSeconds)]),
        ...(options.serveArgs ?? []),
      ];
      // Ready once /healthz answers (works with --quiet, which hides the listening line).
      const healthy = (): Promise<boolean> =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          (response) => response.ok,
          () => false,
        );
      const process_ = await startProcess(`instance ${instanceId(index)}`, process.execPath, args, healthy);
      return {
        id: instanceId(index),
        port,
        url: `http://127.0.0.1:${port}/mcp`,
        ...(metricsPort !== undefined && { metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` }),
        process: process_,
      };
    };
    const instances: FleetInstance[] = [];
    for (let index = 0; index < options.instances; index++) {
      const instance = await startInstance(index);
      started.push(instance.process);
      instances.push(instance);
      progress(`instance ${instance.id} on ${instance.url}`);
    }

    let nginx: Started | undefined;
    if (options.balancer !== false) {
      const confFile = path.join(dir, 'nginx.conf');
      const config = nginxConfig({
        dir,
        listenPort: balancerPort,
        instances: ports.map((port) => `127.0.0.1:${port}`),
        runAsRoot: process.getuid?.() === 0,
      });
      await writeFile(confFile, config);
      nginx = await startProcess('nginx', 'nginx', ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', confFile], () =>
        accepts(balancerPort),
      );
      started.push(nginx);
      progress(`nginx on 127.0.0.1:${balancerPort} (configuration: ${confFile})`);
    }
    const endpoint = nginx === undefined ? (instances[0] as FleetInstance).url : `http://127.0.0.1:${balancerPort}/mcp`;

    return {
      endpoint,
      redisUrl,
      instances,
      redis,
      ...(nginx !== undefined && { nginx }),
      dir,
      async restart(index) {
        const old = instances[index];
        if (old === undefined) throw new Error(`no instance ${index}`);
        await old.process.stop();
        const fresh = await startInstance(index);
        instances[index] = fresh;
        started.push(fresh.process);
        return fresh;
      },
      async stop() {
        await stopAll(started);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopAll(started);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
