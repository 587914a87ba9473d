/**
 * Prometheus metrics (prom-client), one registry per server process. The server and its fronts
 * report through this object; `serve --metrics ADDRESS` exposes `registry` on a listener of its own.
 * Labels carry method names, outcomes, reasons and configured model names — never principals,
 * arguments or prompt text.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { FlowEvents } from '../flows/engine.js';
import type { ModelCallRecord } from '../models/usage.js';
import type { LimitName } from './principalLimits.js';

export type RequestOutcome = 'complete' | 'input_required' | 'error' | 'refused';

export interface ServerMetrics extends FlowEvents {
  readonly registry: Registry;
  /** One MCP request answered: its JSON-RPC method (or `other`) and outcome. */
  request(method: string, outcome: RequestOutcome): void;
  limitHit(limit: LimitName): void;
  /** Reads the number of open 2025-11-25 sessions whenever metrics are collected. */
  watchLegacySessions(count: () => number): void;
  /** Reads the tasks kept, by status, whenever metrics are collected (the tasks extension). */
  watchTasks(counts: () => Promise<Record<string, number>>): void;
}

const KNOWN_METHODS = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'initialize',
  'notifications/initialized',
  'ping',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

export function createServerMetrics(options: { defaultMetrics?: boolean } = {}): ServerMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'mmi_' });
  const requests = new Counter({
    name: 'mmi_requests_total',
    help: 'MCP requests answered, by JSON-RPC method and outcome',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  const rounds = new Counter({
    name: 'mmi_rounds_total',
    help: 'MRTR retries whose request state was verified and accepted',
    registers: [registry],
  });
  const inputRequired = new Counter({
    name: 'mmi_input_required_total',
    help: 'input_required results issued',
    registers: [registry],
  });
  const rejections = new Counter({
    name: 'mmi_state_rejections_total',
    help: 'Request states refused, by reason (replayed, expired, bad_tag, store_unavailable, ...)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const modelCalls = new Counter({
    name: 'mmi_model_calls_total',
    help: 'Model answers by source (server: a server-owned model; host: the client answered an input request)',
    labelNames: ['source', 'model', 'outcome'] as const,
    registers: [registry],
  });
  const modelTokens = new Counter({
    name: 'mmi_model_tokens_total',
    help: 'Tokens spent by server-owned models (input + output)',
    labelNames: ['source', 'model'] as const,
    registers: [registry],
  });
  const modelLatency = new Histogram({
    name: 'mmi_model_latency_seconds',
    help: 'Latency of server-owned model calls',
    labelNames: ['source', 'model'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180],
    registers: [registry],
  });
  const limits = new Counter({
    name: 'mmi_limits_hit_total',
    help: 'Tool calls refused by a per-principal limit (rate: calls per minute; tokens: daily token budget)',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  let legacyCount: () => number = () => 0;
  new Gauge({
    name: 'mmi_legacy_sessions_open',
    help: 'Open 2025-11-25 sessions (live streams held by this instance)',
    registers: [registry],
    collect() {
      this.set(legacyCount());
    },
  });
  let taskCounts: (() => Promise<Record<string, number>>) | undefined;
  new Gauge({
    name: 'mmi_tasks',
    help: 'Tasks kept in the task store, by status (every instance on a shared store reports the same counts)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      if (taskCounts === undefined) return;
      const counts = await taskCounts().catch(() => undefined);
      if (counts === undefined) return;
      for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
    },
  });

  return {
    registry,
    watchTasks: (counts) => {
      taskCounts = counts;
    },
    request: (method, outcome) => requests.inc({ method: KNOWN_METHODS.has(method) ? method : 'other', outcome }),
    limitHit: (limit) => limits.inc({ limit }),
    watchLegacySessions: (count) => {
      legacyCount = count;
    },
    roundAccepted: () => rounds.inc(),
    inputRequired: () => inputRequired.inc(),
    stateRejected: (reason) => rejections.inc({ reason }),
    serverModelCall: (call: ModelCallRecord) => {
      const labels = { source: 'server', model: call.model };
      modelCalls.inc({ ...labels, outcome: call.outcome });
      modelTokens.inc(labels, call.tokens);
      modelLatency.observe(labels, call.latencyMs / 1000);
    },
    hostModelAnswer: () => modelCalls.inc({ source: 'host', model: 'host', outcome: 'ok' }),
  };
}
