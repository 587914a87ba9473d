/**
 * Child processes of a local fleet — redis-server, `serve` instances, nginx — started on free loopback
 * ports with every file (configuration, pid, logs, nginx temp paths) in one temporary directory, each
 * stoppable (SIGTERM, then SIGKILL after a grace period) and killable. Shared by `npm run fleet`, the
 * fleet tests and the fleet benchmark.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';

export interface Started {
  readonly name: string;
  readonly child: ChildProcess;
  /** stdout and stderr so far (bounded). */
  output(): string;
  /** SIGTERM, wait up to `graceMs` (default 5 s), then SIGKILL; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL at once, as a crash would (`kill -9`). */
  kill9(): Promise<void>;
  readonly exited: Promise<number | null>;
}

const MAX_OUTPUT = 64 * 1024;

/** How many ports below the kernel's ephemeral range ports are drawn from. */
const OWN_RANGE_SIZE = 10_000;

/**
 * Where ports are drawn from: below the kernel's ephemeral range (Linux: ip_local_port_range), which the OS never
 * hands out by itself. A port it picked (`listen(0)`) could be handed to another process between our probe and the
 * bind, or once the process on it has died: a test that kills a fleet instance while other tests run beside it saw
 * nginx's next try at the dead instance answered by another test's server that had been given the port. Undefined
 * where the range cannot be read (the OS then picks, as before).
 */
function ownRange(): { low: number; size: number } | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 + OWN_RANGE_SIZE
      ? { low: low - OWN_RANGE_SIZE, size: OWN_RANGE_SIZE }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A server listening on 127.0.0.1:`port` (0: the OS picks), or undefined when that port is taken. */
function probe(port: number): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(undefined) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A port free on 127.0.0.1 right now (outside the ephemeral range where it can; the caller binds it soon after). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0] as number;
}

/**
 * `count` distinct ports free on 127.0.0.1 right now: every probe stays bound until all are chosen, so no port is
 * chosen twice. Drawn at random from below the ephemeral range (`ownRange`), bounded in tries; else the OS picks.
 */
export async function freePorts(count: number): Promise<number[]> {
  const range = ownRange();
  const servers: Server[] = [];
  try {
    for (let tries = 0; range !== undefined && servers.length < count && tries < 100 * count; tries++) {
      const server = await probe(range.low + Math.floor(Math.random() * range.size));
      if (server !== undefined) servers.push(server);
    }
    while (servers.length < count) {
      const server = await probe(0);
      if (server === undefined) throw new Error('no free port on 127.0.0.1');
      servers.push(server);
    }
    return servers.map((server) => {
      const address = server.address();
      return typeof address === 'object' && address !== null ? address.port : 0;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** Whether a binary is on PATH (`command -v`). */
export function hasBinary(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * How long a process may take to get ready by default: generous, because on a loaded machine (a test suite
 * beside other work on two cores) a start that takes a fraction of a second when quiet can take many times that.
 */
const READY_TIMEOUT_MS = 30_000;

/**
 * Spawns `command` and resolves once `ready` holds — a pattern its output matches, or a check that
 * answers true — within `timeoutMs` (default `READY_TIMEOUT_MS`); rejects, killing the child, if it exits
 * or never gets ready.
 */
export async function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  ready: RegExp | (() => Promise<boolean>),
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {},
): Promise<Started> {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  let output = '';
  const append = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-MAX_OUTPUT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? null : 128)));
  });
  const started: Started = {
    name,
    child,
    output: () => output,
    exited,
    stop: async (graceMs = 5000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.kill('SIGTERM');
      const code = await exited;
      clearTimeout(force);
      return code;
    },
    kill9: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  const timeoutMs = options.timeoutMs ?? READY_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      clearInterval(poll);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${why}\n${output}`));
    };
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms`), timeoutMs);
    let checking = false;
    const poll = setInterval(() => {
      if (checking) return;
      checking = true;
      void (ready instanceof RegExp ? Promise.resolve(ready.test(output)) : ready()).then((ok) => {
        checking = false;
        if (!ok || child.exitCode !== null) return;
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      });
    }, 25);
    void exited.then((code) => fail(`exited with ${code} before it was ready`));
  });
  return started;
}

/** Stops every process given, in reverse order, never throwing. */
export async function stopAll(processes: readonly (Started | undefined)[], graceMs?: number): Promise<void> {
  for (const started of [...processes].reverse()) {
    if (started !== undefined) await started.stop(graceMs).catch(() => {});
  }
}
