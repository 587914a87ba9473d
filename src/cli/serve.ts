/** `mcp-model-input serve`: the server on stdio or Streamable HTTP. */
import { ModelInputError } from '../errors.js';
import { PICK_KEY, SUMMARY_KEY } from '../flows/summarizeRepo/schema.js';
import { createStderrLogger, type Logger } from '../logger.js';
import { planReach, SAMPLING_ONLY_HINT } from '../models/sources.js';
import { createModelInputHttpFront, serveModelInputStdio } from '../app/modelInputServer.js';
import { openProductServer } from '../app/productServer.js';
import { servedToolsFrom } from '../app/toolModules.js';
import { warmUpServer, type ServedRoot } from '../app/warmUp.js';
import { ANONYMOUS, loadTokensFile, localPrincipal } from '../server/principals.js';
import { loadKeyRing } from '../state/index.js';
import { KID_PATTERN } from '../state/keyRing.js';
import { defaultAllowedHosts, defaultAllowedOrigins, type HttpFront } from '../transports/http.js';
import { listenMetrics, type MetricsListener } from '../transports/metricsHttp.js';
import type { ListeningServer } from '../transports/nodeHttp.js';
import { parseCommandArgs, parseInteger, resolveDirectory } from './args.js';
import { BUDGET_FLAG_OPTIONS, budgetsFromFlags } from './budgetFlags.js';
import {
  ADMISSION_FLAG_OPTIONS,
  admissionFromFlags,
  HTTP_LIMIT_FLAG_OPTIONS,
  HTTP_LIMIT_FLAGS,
  httpLimitsFromFlags,
} from './limitFlags.js';
import { MODEL_FLAG_OPTIONS, modelPlanFromFlags } from './modelFlags.js';
import { SERVE_USAGE } from './usage.js';
import { writeLine, type CliIo } from './io.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The front as it is, except that once it has answered its first request the server warms up (app/warmUp.ts), and
 * gives the warm-up's synthetic call up when a tool call (or a request that does not name its method) arrives.
 */
function warmingUpAfterFirstAnswer(front: HttpFront, served: ServedRoot): HttpFront {
  const warmUp = new AbortController();
  const fetch = async (request: Request): Promise<Response> => {
    const method = request.headers.get('mcp-method');
    if (request.method === 'POST' && (method === null || method === 'tools/call')) warmUp.abort();
    try {
      return await front.fetch(request);
    } finally {
      void warmUpServer(warmUp.signal, served);
    }
  };
  return Object.assign(Object.create(front) as HttpFront, { fetch });
}

/** Parses `[HOST:]PORT` (IPv6 hosts in brackets). */
export function parseListenAddress(value: string, flag = '--http'): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || !Number.isInteger(port) || port > 65_535) {
    throw new ModelInputError('usage', `${flag} expects [HOST:]PORT, got '${value}'`);
  }
  const host = (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  return { host, port };
}

interface LegacyFlags {
  enabled: boolean;
  maxSamplesPerCall?: number;
  maxSessions?: number;
  sessionIdleSeconds?: number;
  maxSessionsPerPrincipal?: number;
  sessionLifetimeSeconds?: number;
}

/** `--legacy on|off` and the legacy adapter's bounds; the bounds need `--legacy on`. */
function parseLegacyFlags(values: Record<string, string | boolean | string[] | undefined>): LegacyFlags {
  const mode = values['legacy'];
  if (mode !== undefined && mode !== 'on' && mode !== 'off') {
    throw new ModelInputError('usage', `--legacy expects on or off, got '${String(mode)}'`);
  }
  const flags = {
    maxSamplesPerCall: parseInteger(
      '--max-samples-per-call',
      values['max-samples-per-call'] as string | undefined,
      1,
      100,
    ),
    maxSessions: parseInteger('--max-sessions', values['max-sessions'] as string | undefined, 1, 10_000),
    sessionIdleSeconds: parseInteger('--session-idle', values['session-idle'] as string | undefined, 1, 86_400),
    maxSessionsPerPrincipal: parseInteger(
      '--max-sessions-per-principal',
      values['max-sessions-per-principal'] as string | undefined,
      1,
      10_000,
    ),
    sessionLifetimeSeconds: parseInteger(
      '--session-lifetime',
      values['session-lifetime'] as string | undefined,
      1,
      7 * 86_400,
    ),
  };
  if (mode === 'off') {
    for (const flag of [
      'max-samples-per-call',
      'max-sessions',
      'session-idle',
      'max-sessions-per-principal',
      'session-lifetime',
    ]) {
      if (values[flag] !== undefined) throw new ModelInputError('usage', `serve: --${flag} needs --legacy on`);
    }
    return { enabled: false };
  }
  return {
    enabled: true,
    ...(flags.maxSamplesPerCall !== undefined && { maxSamplesPerCall: flags.maxSamplesPerCall }),
    ...(flags.maxSessions !== undefined && { maxSessions: flags.maxSessions }),
    ...(flags.sessionIdleSeconds !== undefined && { sessionIdleSeconds: flags.sessionIdleSeconds }),
    ...(flags.maxSessionsPerPrincipal !== undefined && { maxSessionsPerPrincipal: flags.maxSessionsPerPrincipal }),
    ...(flags.sessionLifetimeSeconds !== undefined && { sessionLifetimeSeconds: flags.sessionLifetimeSeconds }),
  };
}

const DEFAULT_DRAIN_SECONDS = 30;

/** SIGTERM/SIGINT: drain (no new requests, those in flight finish within the timeout), then exit 0. */
function drainOnSignal(
  listening: ListeningServer,
  drainSeconds: number,
  after: () => Promise<void>,
  logger: Logger,
): Promise<number> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      logger.info(`${signal}: draining (no new requests; up to ${drainSeconds} s for those in flight)`);
      void listening
        .drain(drainSeconds * 1000)
        .then((clean) => {
          if (!clean) logger.warn(`drain: requests still in flight after ${drainSeconds} s were cut off`);
        })
        .finally(() => void after().finally(() => resolve(0)));
    };
    onShutdownSignal(stop);
  });
}

/**
 * Calls `stop` on the first SIGINT or SIGTERM; returns what removes the listeners (a stdio server that ends with
 * its input leaves none behind, so `main` can run in-process many times).
 */
function onShutdownSignal(stop: (signal: string) => void): () => void {
  const onInterrupt = () => stop('SIGINT');
  const onTerminate = () => stop('SIGTERM');
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onTerminate);
  return () => {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
  };
}

/** Node's whole-request deadline: the backstop behind the front's body deadline, never shorter than it. */
function requestTimeoutFor(bodyTimeoutMs: number | undefined, defaultTimeoutMs: number): { requestTimeoutMs: number } {
  return { requestTimeoutMs: Math.max(defaultTimeoutMs, (bodyTimeoutMs ?? 0) + 5_000) };
}

export async function runServe(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('serve', argv, {
    stdio: { type: 'boolean' },
    http: { type: 'string' },
    root: { type: 'string' },
    ...MODEL_FLAG_OPTIONS,
    ...BUDGET_FLAG_OPTIONS,
    'state-keys-file': { type: 'string' },
    'state-ttl': { type: 'string' },
    'max-rounds': { type: 'string' },
    'tokens-file': { type: 'string' },
    'allow-remote': { type: 'boolean' },
    'allow-host': { type: 'string', multiple: true },
    'max-body': { type: 'string' },
    ...HTTP_LIMIT_FLAG_OPTIONS,
    ...ADMISSION_FLAG_OPTIONS,
    legacy: { type: 'string' },
    'max-samples-per-call': { type: 'string' },
    'max-sessions': { type: 'string' },
    'session-idle': { type: 'string' },
    store: { type: 'string' },
    'rate-limit': { type: 'string' },
    'principal-token-budget': { type: 'string' },
    'instance-id': { type: 'string' },
    metrics: { type: 'string' },
    'drain-timeout': { type: 'string' },
    'max-sessions-per-principal': { type: 'string' },
    'session-lifetime': { type: 'string' },
    'allow-secret-file': { type: 'string', multiple: true },
    tools: { type: 'string' },
    'tool-module': { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    writeLine(io.stdout, SERVE_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new ModelInputError('usage', `serve: unexpected argument '${positionals[0]}'`);
  if ((values.stdio === true) === (values.http !== undefined)) {
    throw new ModelInputError('usage', 'serve: pass exactly one of --stdio or --http [HOST:]PORT (see --help)');
  }
  if (values.stdio === true) {
    for (const flag of [
      'tokens-file',
      'allow-remote',
      'allow-host',
      'max-body',
      ...HTTP_LIMIT_FLAGS,
      'max-sessions',
      'session-idle',
      'instance-id',
      'metrics',
      'drain-timeout',
      'max-sessions-per-principal',
      'session-lifetime',
    ] as const) {
      if (values[flag] !== undefined) throw new ModelInputError('usage', `serve: --${flag} applies to --http only`);
    }
  }
  const legacy = parseLegacyFlags(values);

  const logger = createStderrLogger({ quiet: values.quiet === true, stream: io.stderr });
  const root = await resolveDirectory('--root', values.root);
  const tools = await servedToolsFrom(values.tools, values['tool-module'] ?? []);
  const models = modelPlanFromFlags(values, logger, io.env);
  const stateTtlSeconds = parseInteger('--state-ttl', values['state-ttl'], 1, 86_400);
  // Two rounds at least: summarize_repo asks the host twice (pick_files, then summary).
  const maxRounds = parseInteger('--max-rounds', values['max-rounds'], 2, 100);
  const budgets = budgetsFromFlags(values);
  const address = values.http === undefined ? undefined : parseListenAddress(values.http);
  const tokens = values['tokens-file'] === undefined ? undefined : await loadTokensFile(values['tokens-file']);
  if (address !== undefined && !LOOPBACK.has(address.host) && tokens === undefined && values['allow-remote'] !== true) {
    throw new ModelInputError(
      'usage',
      `serve: refusing to bind ${address.host} without --tokens-file (every caller would be '${ANONYMOUS}'); pass --allow-remote to do it anyway`,
    );
  }
  const maxBodyBytes = parseInteger('--max-body', values['max-body'], 1024, 64 * 1024 * 1024);
  const httpLimits = httpLimitsFromFlags(values);
  const admission = admissionFromFlags(values);
  const { ring, warning } = await loadKeyRing({
    envValue: io.env['MCP_MODEL_INPUT_STATE_KEYS'],
    filePath: values['state-keys-file'],
  });
  const reach = planReach(models, [PICK_KEY, SUMMARY_KEY]);
  // Without `host` in the plan no state is minted: nothing would need keys shared between processes.
  if (warning !== undefined && reach.usesHost) logger.warn(warning);
  if (reach.needsSampling) {
    logger.info(
      `--model ${models.spec} serves only clients that declare sampling; the others (e.g. the MCP Inspector CLI) ` +
        `get -32021 (a tool error on 2025-11-25): ${SAMPLING_ONLY_HINT}`,
    );
  }
  const fleet = parseFleetFlags(values);
  const product = await openProductServer({
    root,
    tools,
    models,
    keyRing: ring,
    logger,
    budgets,
    admission,
    ...(values.store !== undefined && { store: values.store }),
    ...(stateTtlSeconds !== undefined && { stateTtlSeconds }),
    ...(maxRounds !== undefined && { maxRounds }),
    ...(fleet.callsPerMinute !== undefined && { callsPerMinute: fleet.callsPerMinute }),
    ...(fleet.tokensPerDay !== undefined && { tokensPerDay: fleet.tokensPerDay }),
    metrics: fleet.metrics !== undefined,
    legacy: legacy.enabled && {
      ...(legacy.maxSamplesPerCall !== undefined && { maxSamplesPerCall: legacy.maxSamplesPerCall }),
      ...(legacy.maxSessions !== undefined && { maxSessions: legacy.maxSessions }),
      ...(legacy.sessionIdleSeconds !== undefined && { sessionIdleSeconds: legacy.sessionIdleSeconds }),
      ...(legacy.maxSessionsPerPrincipal !== undefined && {
        maxSessionsPerPrincipal: legacy.maxSessionsPerPrincipal,
      }),
      ...(legacy.sessionLifetimeSeconds !== undefined && { sessionLifetimeSeconds: legacy.sessionLifetimeSeconds }),
      ...(fleet.instanceId !== undefined && { sessionIdPrefix: `${fleet.instanceId}.` }),
    },
    ...(values['allow-secret-file'] !== undefined && {
      repository: { allowSecretFiles: values['allow-secret-file'] },
    }),
  });
  const { store, limits, metrics } = product;

  // The one served root as summarize_repo reads it: the warm-up surveys it ahead of the first call (app/warmUp.ts).
  const warms = tools.includes('summarize_repo');
  const served: ServedRoot = {
    root,
    budgets,
    ...(values['allow-secret-file'] !== undefined && { repository: { allowSecretFiles: values['allow-secret-file'] } }),
  };

  if (address === undefined) {
    const server = product.create(localPrincipal(), true);
    // What the first tool call needs loads once the first answer is out: never before it, never in the call.
    const warmUp = new AbortController();
    const handle = serveModelInputStdio(server, {
      logger,
      input: io.stdin,
      output: io.stdout,
      onFirstAnswer: () => {
        if (warms) void warmUpServer(warmUp.signal, served);
      },
      // The warm-up's synthetic call is given up when a real one arrives: it never competes with it.
      onRequest: (method) => method === 'tools/call' && warmUp.abort(),
    });
    logger.info(`serving ${root} on stdio (model: ${models.spec})`);
    io.stdin.once('end', () => {
      // No call can come any more: the warm-up's survey and calls are not begun (a host's probe process exits soon).
      warmUp.abort();
      void handle.close();
    });
    let dispose = () => {};
    const code = await new Promise<number>((resolve) => {
      io.stdin.once('close', () => resolve(0));
      dispose = onShutdownSignal((signal) => {
        logger.info(`${signal}: shutting down`);
        warmUp.abort();
        void handle.close().finally(() => resolve(0));
      });
    });
    dispose();
    await store.close();
    return code;
  }

  const { host, port } = address;
  const server = product.create(ANONYMOUS, false);
  // The Node HTTP adapter loads only when serving HTTP: stdio start-up never pays for it.
  const { DEFAULT_REQUEST_TIMEOUT_MS, listenHttp } = await import('../transports/nodeHttp.js');
  const listening = await listenHttp(
    (boundPort) => {
      const allowedHosts = defaultAllowedHosts(host, boundPort, values['allow-host'] ?? []);
      const front = createModelInputHttpFront(server, {
        logger,
        allowedHosts,
        allowedOrigins: defaultAllowedOrigins(allowedHosts),
        ...(tokens !== undefined && { tokens }),
        ...(maxBodyBytes !== undefined && { maxBodyBytes }),
        ...(limits !== undefined && { limits }),
        ...(metrics !== undefined && { metrics }),
        readiness: product.readiness,
        ...httpLimits,
      });
      return warms ? warmingUpAfterFirstAnswer(front, served) : front;
    },
    host,
    port,
    requestTimeoutFor(httpLimits.bodyTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS),
  );
  let metricsListener: MetricsListener | undefined;
  if (metrics !== undefined && fleet.metrics !== undefined) {
    metricsListener = await listenMetrics(metrics.registry, fleet.metrics.host, fleet.metrics.port, logger);
    logger.info(`metrics at ${metricsListener.url}`);
  }
  logger.info(`serving ${root} at ${listening.origin}/mcp (model: ${models.spec}; store: ${store.description})`);
  return drainOnSignal(
    listening,
    fleet.drainSeconds ?? DEFAULT_DRAIN_SECONDS,
    async () => {
      await metricsListener?.close();
      await store.close();
    },
    logger,
  );
}

interface FleetFlags {
  callsPerMinute?: number;
  tokensPerDay?: number;
  instanceId?: string;
  metrics?: { host: string; port: number };
  drainSeconds?: number;
}

/** `--rate-limit`, `--principal-token-budget`, `--instance-id`, `--metrics`, `--drain-timeout`. */
function parseFleetFlags(values: Record<string, string | boolean | string[] | undefined>): FleetFlags {
  const text = (name: string): string | undefined => values[name] as string | undefined;
  const callsPerMinute = parseInteger('--rate-limit', text('rate-limit'), 1, 1_000_000);
  const tokensPerDay = parseInteger('--principal-token-budget', text('principal-token-budget'), 1, 10_000_000_000);
  const drainSeconds = parseInteger('--drain-timeout', text('drain-timeout'), 0, 3600);
  const instanceId = text('instance-id');
  if (instanceId !== undefined && !KID_PATTERN.test(instanceId)) {
    throw new ModelInputError('usage', `--instance-id expects 1-32 letters, digits, _ or -, got '${instanceId}'`);
  }
  const metricsAddress = text('metrics');
  const metrics = metricsAddress === undefined ? undefined : parseListenAddress(metricsAddress, '--metrics');
  return {
    ...(callsPerMinute !== undefined && { callsPerMinute }),
    ...(tokensPerDay !== undefined && { tokensPerDay }),
    ...(instanceId !== undefined && { instanceId }),
    ...(metrics !== undefined && { metrics }),
    ...(drainSeconds !== undefined && { drainSeconds }),
  };
}
