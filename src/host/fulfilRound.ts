/**
 * One round of embedded requests through the host's trust boundary, in this order, so that
 * nothing is sent and no model is called past the first refusal:
 *
 * 1. capability gate over every request of the round (undeclared → stop);
 * 2. validation of every request (shapes, `maxTokens`, sizes, `includeContext`, priorities);
 * 3. budgets: each sampling request reserves its bytes and tokens (input estimate + `maxTokens`);
 * 4. approval: every sampling request of the round in one review (unless the call is approved);
 * 5. the rate limit: one token per sampling request, per server and per principal;
 * 6. fulfilment: the model the preferences choose; its answer size-checked, its spend settled; the
 *    first failure (a model error, a rejected answer) aborts the round's other model calls.
 *
 * Elicitation goes to the terminal elicitor (the user answers it, so it needs no approval);
 * `roots/list` is answered from the configured roots. Every request gets audit lines.
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
import { estimateTokens, samplingRequestBytes, validateInputRequest } from './policies/validateRequest.js';
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

/** One `refused` audit line for each request of a round the host will not answer (round cap, state size). */
export function auditRefusedRound(
  requests: readonly RawInputRequest[],
  position: CallPosition,
  audit: AuditLog,
  reason: string,
): void {
  for (const request of requests) audit.record({ ...auditBase(position, request), decision: 'refused', reason });
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
  requestBytes: number,
  signal: AbortSignal,
): Promise<CreateMessageResult | CreateMessageResultWithTools> {
  const offered = offeredTools(request.params);
  const chosen = modelFor(request, policies.models);
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
  for (const request of sampling) {
    policies.audit.record({
      ...auditBase(position, request),
      bytes: samplingRequestBytes(request.params),
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
  let valid: ValidInputRequest[];
  try {
    checkCapabilities(raw, policies.declared, position);
    valid = raw.map((request) => validateInputRequest(request, policies.limits, position));
    policies.budget.startRound(position.round);
    for (const request of valid) {
      if (request.method !== 'sampling/createMessage') continue;
      const bytes = samplingRequestBytes(request.params);
      policies.budget.reserve(request.key, { bytes, tokens: estimateTokens(bytes) + request.params.maxTokens });
    }
  } catch (error) {
    if (isHostError(error)) {
      const refused = raw.find((request) => request.key === error.detail.key) ?? raw[0];
      if (refused !== undefined) {
        policies.audit.record({ ...auditBase(position, refused), decision: 'refused', reason: error.code });
      }
    }
    throw error;
  }

  const sampling = valid.filter((request): request is SamplingRequest => request.method === 'sampling/createMessage');
  await review(sampling, position, policies, call);
  const taken: string[] = [];
  for (const request of sampling) {
    for (const key of rateLimitKeys(position)) {
      try {
        await policies.rateLimiter.acquire(key, policies.signal);
        taken.push(key);
      } catch (error) {
        // No model is called this round: the tokens taken for it are given back.
        for (const spent of taken) policies.rateLimiter.release?.(spent);
        policies.audit.record({ ...auditBase(position, request), decision: 'refused', reason: 'rate_limited' });
        throw error;
      }
    }
  }

  // Keys are the server's: `__proto__` must land as an own key, not as this object's prototype.
  const responses: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // The round's model calls run together; the first that fails stops the others (no spend past a refusal).
  const round = new AbortController();
  const signal = policies.signal === undefined ? round.signal : AbortSignal.any([policies.signal, round.signal]);
  const answers = await Promise.all(
    sampling.map((request) =>
      sample(request, position, policies, samplingRequestBytes(request.params), signal).catch((error: unknown) => {
        round.abort(error);
        throw error;
      }),
    ),
  );
  sampling.forEach((request, index) => (responses[request.key] = answers[index]));

  for (const request of valid) {
    if (request.method === 'elicitation/create') {
      if (policies.elicit === undefined) throw new Error('elicitation passed the gate without an elicitor');
      const answer = await policies.elicit(request.params, {
        server: position.server,
        tool: position.tool,
        ...(policies.signal !== undefined && { signal: policies.signal }),
      });
      policies.audit.record({ ...auditBase(position, request), decision: 'fulfilled', reason: answer.action });
      responses[request.key] = answer;
    } else if (request.method === 'roots/list') {
      responses[request.key] = { roots: [...(policies.roots ?? [])] };
      policies.audit.record({ ...auditBase(position, request), decision: 'fulfilled' });
    }
  }
  return responses;
}
