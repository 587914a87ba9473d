/**
 * `audit`: probes a live MCP server (a command on stdio, or a Streamable HTTP URL) against the
 * 2026-07-28 rules and returns one report. Every wait is bounded by the request timeout.
 */
import { VERSION } from '../version.js';
import type { ProbeChannel } from './channel.js';
import { checkDiscovery } from './checks/discovery.js';
import { checkEnvelope } from './checks/envelope.js';
import { checkLegacyOnly, probeEra, type EraProbe } from './checks/era.js';
import { checkInterop } from './checks/interop.js';
import { checkToolFlow, type ToolUnderAudit } from './checks/toolFlow.js';
import { checkToolState } from './checks/toolState.js';
import { checkTransport } from './checks/transport.js';
import { MODERN_REVISION } from '../protocol/revisions.js';
import { createAuditContext, type AuditContext } from './context.js';
import { createHttpChannel, type FetchLike } from './httpChannel.js';
import { RULES } from './rules.js';
import type { CompletionModel } from '../models/modelSource.js';
import { createScriptedHost, type ScriptedAnswers } from './scriptedHost.js';
import { createStdioChannel } from './stdioChannel.js';
import { AUDIT_FORMAT, type AuditReport, type AuditTarget } from './types.js';

export const DEFAULT_AUDIT_TIMEOUT_MS = 10_000;
export const AUDIT_CLIENT_NAME = 'mcp-model-input-audit';

export interface AuditOptions {
  target: AuditTarget;
  /** The tool whose MRTR behaviour to drive; without it the tool rules are not applicable. */
  tool?: ToolUnderAudit;
  /** Scripted answers per input key; `model` answers the rest. */
  answers?: ScriptedAnswers;
  /** The deterministic model that answers unscripted questions (the composition's choice: the audit knows no tool). */
  model?: CompletionModel;
  timeoutMs?: number;
  /** HTTP only: extra request headers (e.g. Authorization). */
  headers?: Record<string, string>;
  /** HTTP only: the fetch to use (tests pass an in-process front's). */
  fetch?: FetchLike;
  /** stdio only: environment and working directory of the spawned command. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Also connect the official MCP client (default true). */
  interop?: boolean;
}

const TOOL_RULES = RULES.map((rule) => rule.id).filter(
  (id) => id.startsWith('mrtr.') || id === 'tool.listed' || id === 'envelope.missing_capability',
);

function openChannel(options: AuditOptions, timeoutMs: number): ProbeChannel {
  if (options.target.transport === 'stdio') {
    return createStdioChannel({
      command: options.target.command,
      timeoutMs,
      ...(options.env !== undefined && { env: options.env }),
      ...(options.cwd !== undefined && { cwd: options.cwd }),
    });
  }
  return createHttpChannel({
    url: options.target.url,
    timeoutMs,
    ...(options.headers !== undefined && { headers: options.headers }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  });
}

export async function runAudit(options: AuditOptions): Promise<AuditReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_AUDIT_TIMEOUT_MS;
  const channel = openChannel(options, timeoutMs);
  const ctx = createAuditContext(channel, { name: AUDIT_CLIENT_NAME, version: VERSION });
  let era: EraProbe;
  try {
    era = await probeEra(ctx);
    if (era.era === 'legacy') {
      await checkLegacyOnly(ctx, era.version);
      return report(options, ctx, channel.diagnostics(), era);
    }
    await checkDiscovery(ctx);
    await checkEnvelope(ctx);
    if (options.tool === undefined) {
      for (const rule of TOOL_RULES) ctx.record(rule, 'not_applicable', 'no --tool given');
    } else {
      const first = await checkToolFlow(ctx, options.tool, createScriptedHost(options.answers, options.model));
      if (ctx.observed.tool !== undefined) await checkToolState(ctx, options.tool, first);
      for (const rule of TOOL_RULES) ctx.record(rule, 'not_applicable', `${options.tool.name} is not listed`);
    }
    checkTransport(ctx);
  } finally {
    await channel.close();
  }
  if (options.interop === false) ctx.record('interop.official_client', 'not_applicable', 'skipped (--no-interop)');
  else {
    await checkInterop(ctx, {
      target: options.target,
      timeoutMs,
      ...(options.fetch !== undefined && { fetch: options.fetch }),
      ...(options.headers !== undefined && { headers: options.headers }),
    });
  }
  return report(options, ctx, channel.diagnostics(), era);
}

function report(options: AuditOptions, ctx: AuditContext, diagnostics: string, era: EraProbe): AuditReport {
  const rules = ctx.ledger();
  const count = (status: string) => rules.filter((rule) => rule.status === status).length;
  return {
    format: AUDIT_FORMAT,
    protocolVersion: MODERN_REVISION,
    negotiated: era.era === 'legacy' ? era.version : era.era === 'unknown' ? null : era.era,
    target: options.target,
    summary: { pass: count('pass'), fail: count('fail'), notApplicable: count('not_applicable') },
    rules,
    observed: ctx.observed,
    ...(count('fail') > 0 && diagnostics !== '' && { diagnostics }),
  };
}
