/**
 * One round of embedded requests through the host's trust boundary, in this order, so that
 * nothing is sent and no model is called past the first refusal:
 *
 * 0. a round of more than `maxInputRequests` is refused whole; so is one whose call was aborted;
 * 1. capability gate over every request of the round (undeclared → stop);
 * 2. validation of every request (shapes, `maxTokens`, sizes, `includeContext`, priorities);
 * 3. budgets: each sampling request reserves the bytes its model's provider will receive (the serialized
 *    request: messages, system prompt, tools, tool results) and tokens (their estimate + `maxTokens`);
 * 4. approval: every sampling request of the round in one review (unless the call is approved);
 * 5. the rate limit: one token per sampling request, per server and per principal, the round's taken
 *    together (a round whose wait would pass the limit is refused whole);
 * 6. fulfilment: the model the preferences choose; its answer size-checked, its spend settled; the
 *    first failure (a model error, a rejected answer) aborts the round's other model calls.
 *
 * Elicitation goes to the terminal elicitor (the user answers it, so it needs no approval); the
 * call's signal (Ctrl-C) stops the whole round, not one question. `roots/list` is answered from the
 * configured roots. Every request gets audit lines; a round refused whole gets one, with a count.
 */
import type {
  ClientCapabilities,
  CreateMessageResult,
  CreateMessageResultWithTools,
  Root,
} from '@modelcontextprotocol/client';

import type { ModelUsage } from '../models/modelSource.js';
import type { AuditLog } from './auditLog.js';
import type { TerminalElicitor } from './elicitTerminal.js';
import { HostError, isHostError } from './hostError.js';
import { terminalSafe } from '../protocol/sanitize.js';
import type { CallBudget } from './policies/budgets.js';
import { checkCapabilities } from './policies/capabilityGate.js';
import { quotedKey } from './policies/refusal.js';
import type { RequestLimits } from './policies/limits.js';
import { selectHostModel, type HostModelEntry } from './policies/modelPolicy.js';
import { rateLimitKeys, type RateLimiter } from './policies/rateLimit.js';
import { checkModelResponse, offeredTools, responseBytes } from './policies/responseCheck.js';
import { samplingUsesTools } from '../protocol/capabilities.js';
import { providerRequestBytes } from './policies/providerBytes.js';
import { estimateTokens, validateInputRequest } from './policies/validateRequest.js';
import { describeCalls, summarizeToolLoop, toolCallsIn } from './toolSummary.js';
import type {
  ApprovalDecision,
  Approver,
  AuditDecision,
  AuditEntry,
  CallPosition,
  RawInputRequest,
  ValidInputRequest,
} from './types.js';

/** Everything a round needs, fixed for the call. */
export interface RoundPolicies {
  declared: ClientCapabilities;
  limits: RequestLimits;
  budget: CallBudget;
  approver: Approver;
  rateLimiter: RateLimiter;
  audit: AuditLog;
  models: readonly HostModelEntry[];
  elicit?: TerminalElicitor;
  roots?: readonly Root[];
  signal?: AbortSignal;
}

/** What the call remembers between rounds. */
export interface CallApproval {
  /** Set by "approve the rest of this call". */
  approvedForCall: boolean;
}

type SamplingRequest = Extract<ValidInputRequest, { method: 'sampling/createMessage' }>;

const APPROVAL_AUDIT: Record<Exclude<ApprovalDecision['kind'], 'deny'>, AuditDecision> = {
  approve: 'approved',
  approve_call: 'approved_call',
  always: 'approved_always',
};

function auditDecision(decision: ApprovalDecision): AuditDecision {
  if (decision.kind === 'deny') return 'denied';
  if (decision.kind === 'approve' && decision.by === 'rule') return 'approved_rule';
  return APPROVAL_AUDIT[decision.kind];
}

/** Reads the `inputRequests` map as the server sent it; a non-object entry is a malformed request. */
export function rawInputRequests(inputRequests: unknown, position: CallPosition): RawInputRequest[] {
  if (inputRequests === undefined) return [];
  if (inputRequests === null || typeof inputRequests !== 'object' || Array.isArray(inputRequests)) {
    throw new HostError('request_invalid', 'the server sent inputRequests that is not an object', {
      round: position.round,
    });
  }
  return Object.entries(inputRequests as Record<string, unknown>).map(([key, entry]) => {
    const request = entry as { method?: unknown; params?: unknown } | null;
    if (request === null || typeof request !== 'object' || typeof request.method !== 'string') {
      throw new HostError('request_invalid', `input '${key}' is not a request (no method)`, {
        key,
        round: position.round,
      });
    }
    return { key, method: request.method, params: request.params };
  });
}

/** The audit fields of a request in a tool loop: tools offered, tool choice, calls made so far. */
function toolLoopAudit(params: unknown): Pick<AuditEntry, 'tools' | 'toolChoice' | 'toolCalls'> {
  const loop = summarizeToolLoop(params);
  if (loop === undefined) return {};
  return { tools: loop.tools.join(','), toolChoice: loop.choice, toolCalls: describeCalls(loop.calls) };
}

function auditBase(position: CallPosition, request: { key: string; method: string }) {
  return {
    server: position.server.name,
    serverKey: position.server.key,
    ...(position.principal !== undefined && { principal: position.principal }),
    tool: position.tool,
    method: request.method,
    key: request.key,
    round: position.round,
  };
}

/** Keys (and methods) a coalesced refusal line names before `…`. */
const NAMED_ON_A_LINE = 8;

function named(values: readonly string[]): string {
  const shown = values.slice(0, NAMED_ON_A_LINE).join(',');
  return values.length > NAMED_ON_A_LINE ? `${shown},…` : shown;
}

/**
 * One `refused` audit line for the requests of a round the host will not answer (round cap, state
 * size, too many requests, rate limit, an aborted call), however many: `count` says how many, `key`
 * and `method` name the first few.
 */
export function auditRefusedRound(
  requests: readonly RawInputRequest[],
  position: CallPosition,
  audit: AuditLog,
  reason: string,
): void {
  if (requests.length === 0) return;
  const methods = [...new Set(requests.map((request) => request.method))];
  const line = {
    key: named(requests.slice(0, NAMED_ON_A_LINE + 1).map((request) => request.key)),
    method: named(methods),
  };
  audit.record({ ...auditBase(position, line), decision: 'refused', reason, count: requests.length });
}

/**
 * Stops the round when the call's signal has aborted (Ctrl-C, the caller, or a 2025-11-25 call that
 * has already ended): nothing more is asked, sent or answered.
 */
function stopIfAborted(requests: readonly RawInputRequest[], position: CallPosition, policies: RoundPolicies): void {
  const signal = policies.signal;
  if (signal?.aborted !== true) return;
  const stop = isHostError(signal.reason)
    ? signal.reason
    : new HostError('cancelled', `${position.tool}: the call was cancelled`, { round: position.round });
  auditRefusedRound(requests, position, policies.audit, stop.code);
  throw stop;
}

/** A sampling request with its model and the bytes that model's provider will receive. */
interface Measured {
  chosen: HostModelEntry;
  bytes: number;
}

/** The host model that answers `request`: the one its preferences choose (the dialog shows the same). */
function modelFor(request: SamplingRequest, all: readonly HostModelEntry[]): HostModelEntry {
  // A request in a tool loop goes only to a model that can use tools (the host declared sampling.tools for them).
  const models = samplingUsesTools(request.params) ? all.filter((entry) => entry.model.usesTools === true) : all;
  return selectHostModel(request.params.modelPreferences, models);
}

async function sample(
  request: SamplingRequest,
  position: CallPosition,
  policies: RoundPolicies,
  { chosen, bytes: requestBytes }: Measured,
  signal: AbortSignal,
): Promise<CreateMessageResult | CreateMessageResultWithTools> {
  const offered = offeredTools(request.params);
  let reported: ModelUsage | undefined;
  let raw: unknown;
  try {
    raw = await chosen.model.complete({
      key: request.key,
      params: request.params,
      signal,
      onUsage: (usage) => {
        reported = {
          inputTokens: (reported?.inputTokens ?? 0) + usage.inputTokens,
          outputTokens: (reported?.outputTokens ?? 0) + usage.outputTokens,
        };
      },
    });
  } catch (error) {
    policies.audit.record({
      ...auditBase(position, request),
      model: chosen.id,
      decision: 'failed',
      reason: 'model_failed',
    });
    const reason = error instanceof Error ? error.message : String(error);
    throw new HostError(
      'model_failed',
      `the host model ${chosen.id} failed on input ${quotedKey(request.key)}: ${terminalSafe(reason, 500)}`,
      {
        key: request.key,
        round: position.round,
      },
      { cause: error },
    );
  }
  let result: CreateMessageResult | CreateMessageResultWithTools;
  try {
    result = checkModelResponse(request.key, raw, policies.limits, position, offered === undefined ? {} : { offered });
  } catch (error) {
    policies.audit.record({
      ...auditBase(position, request),
      model: chosen.id,
      decision: 'refused',
      reason: isHostError(error) ? error.code : 'response_invalid',
    });
    throw error;
  }
  const answerBytes = responseBytes(result);
  const tokens =
    reported === undefined
      ? estimateTokens(requestBytes) + estimateTokens(answerBytes)
      : reported.inputTokens + reported.outputTokens;
  policies.budget.settle(request.key, { bytes: requestBytes + answerBytes, tokens });
  const asked = toolCallsIn(result.content);
  policies.audit.record({
    ...auditBase(position, request),
    bytes: answerBytes,
    tokens,
    model: chosen.id,
    decision: 'fulfilled',
    ...(asked.length > 0 && { toolUse: describeCalls(asked) }),
  });
  return result;
}

async function review(
  sampling: SamplingRequest[],
  measured: ReadonlyMap<string, Measured>,
  position: CallPosition,
  policies: RoundPolicies,
  call: CallApproval,
): Promise<void> {
  if (sampling.length === 0) return;
  let decision: ApprovalDecision;
  if (call.approvedForCall) decision = { kind: 'approve_call' };
  else {
    const answeredBy = policies.models.length === 0 ? undefined : sampling.map((r) => modelFor(r, policies.models).id);
    const round = { ...position, requests: sampling, ...(answeredBy !== undefined && { answeredBy }) };
    decision = await policies.approver.review(round, policies.signal);
  }
  // A dialog closed by the call's abort (or, on 2025-11-25, by its end) decided nothing.
  stopIfAborted(sampling, position, policies);
  for (const request of sampling) {
    policies.audit.record({
      ...auditBase(position, request),
      bytes: measured.get(request.key)?.bytes,
      decision: auditDecision(decision),
      ...(decision.kind === 'deny' && { reason: decision.reason }),
      ...toolLoopAudit(request.params),
    });
  }
  if (decision.kind === 'deny') {
    const keys = sampling.map((request) => quotedKey(request.key)).join(', ');
    throw new HostError('approval_denied', `model input for ${keys} was not approved: ${decision.reason}`, {
      ...(sampling.length === 1 && { key: sampling[0]?.key }),
      round: position.round,
    });
  }
  if (decision.kind === 'approve_call') call.approvedForCall = true;
}

/**
 * Runs one round's embedded requests through the policies and answers them. Throws `HostError`
 * at the first refusal; the audit log has a line for what was refused and why.
 */
export async function fulfilRound(
  raw: readonly RawInputRequest[],
  position: CallPosition,
  policies: RoundPolicies,
  call: CallApproval,
): Promise<Record<string, unknown>> {
  if (raw.length > policies.limits.maxInputRequests) {
    auditRefusedRound(raw, position, policies.audit, 'request_invalid');
    throw new HostError(
      'request_invalid',
      `the round has ${raw.length} input requests, the limit is ${policies.limits.maxInputRequests}`,
      { round: position.round },
    );
  }
  stopIfAborted(raw, position, policies);
  let valid: ValidInputRequest[];
  // Server-chosen keys: a Map, so `__proto__` is a key like any other.
  const measured = new Map<string, Measured>();
  try {
    checkCapabilities(raw, policies.declared, position);
    valid = raw.map((request) => validateInputRequest(request, policies.limits, position));
    policies.budget.startRound(position.round);
    for (const request of valid) {
      if (request.method !== 'sampling/createMessage') continue;
      const chosen = modelFor(request, policies.models);
      const bytes = await providerRequestBytes(chosen.model, request.params);
      measured.set(request.key, { chosen, bytes });
      policies.budget.reserve(request.key, { bytes, tokens: estimateTokens(bytes) + request.params.maxTokens });
    }
  } catch (error) {
    if (isHostError(error)) {
      const refused = raw.find((request) => request.key === error.detail.key) ?? raw[0];
      if (refused !== undefined) {
        const bytes = measured.get(refused.key)?.bytes;
        policies.audit.record({
          ...auditBase(position, refused),
          ...(bytes !== undefined && { bytes }),
          decision: 'refused',
          reason: error.code,
        });
      }
    }
    throw error;
  }

  const sampling = valid.filter((request): request is SamplingRequest => request.method === 'sampling/createMessage');
  await review(sampling, measured, position, policies, call);
  // The round's requests take their tokens together: a round whose wait would pass the limit is refused whole.
  // `roots/list` has a bucket of its own (`roots:` + the server's key), as outside a call.
  const roots = valid.filter((request) => request.method === 'roots/list');
  const wanted: Array<{ key: string; count: number }> = [
    ...(sampling.length === 0 ? [] : rateLimitKeys(position).map((key) => ({ key, count: sampling.length }))),
    ...(roots.length === 0 ? [] : [{ key: `roots:${position.server.key}`, count: roots.length }]),
  ];
  const taken: Array<{ key: string; count: number }> = [];
  for (const want of wanted) {
    try {
      await policies.rateLimiter.acquire(want.key, policies.signal, want.count);
      taken.push(want);
    } catch (error) {
      // Nothing is answered this round: the tokens taken for it are given back.
      for (const spent of taken) policies.rateLimiter.release?.(spent.key, spent.count);
      const refused = want.key.startsWith('roots:') ? roots : sampling;
      auditRefusedRound(refused, position, policies.audit, isHostError(error) ? error.code : 'cancelled');
      throw error;
    }
  }

  // Keys are the server's: `__proto__` must land as an own key, not as this object's prototype.
  const responses: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // The round's model calls run together; the first that fails stops the others (no spend past a refusal).
  const round = new AbortController();
  const signal = policies.signal === undefined ? round.signal : AbortSignal.any([policies.signal, round.signal]);
  const answers = await Promise.all(
    sampling.map((request) =>
      sample(request, position, policies, measured.get(request.key) as Measured, signal).catch((error: unknown) => {
        round.abort(error);
        throw error;
      }),
    ),
  );
  sampling.forEach((request, index) => (responses[request.key] = answers[index]));

  for (const [index, request] of valid.entries()) {
    if (request.method === 'elicitation/create') {
      if (policies.elicit === undefined) throw new Error('elicitation passed the gate without an elicitor');
      // Ctrl-C (the call's signal) ends the whole round, not one question: the rest are never asked.
      stopIfAborted(valid.slice(index), position, policies);
      const answer = await policies.elicit(request.params, {
        server: position.server,
        tool: position.tool,
        ...(policies.signal !== undefined && { signal: policies.signal }),
      });
      stopIfAborted(valid.slice(index), position, policies);
      policies.audit.record({ ...auditBase(position, request), decision: 'fulfilled', reason: answer.action });
      responses[request.key] = answer;
    } else if (request.method === 'roots/list') {
      responses[request.key] = { roots: [...(policies.roots ?? [])] };
      policies.audit.record({ ...auditBase(position, request), decision: 'fulfilled' });
    }
  }
  return responses;
}
