/**
 * The planner's findings. Hard rejects are designs the protocol or the lesson forbids; refusals are
 * things the planner will not design at all. Each names the workflow field it comes from.
 */
import type { Finding } from './types.js';
import { MODERN_REVISION } from '../protocol/revisions.js';
import { isModelStep, type Workflow } from './workflow.js';

const FORBIDDEN_DECISIONS = ['identity', 'authorization', 'consent'] as const;

/** `a`, `a and b`, `a, b and c`. */
function words(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

export function hardRejects(workflow: Workflow): Finding[] {
  const design = workflow.design;
  if (design === undefined) return [];
  const findings: Finding[] = [];
  const sampling = design.sampling;
  if ((design.status ?? 'new') === 'new' && sampling !== undefined && !workflow.requirements.clientModel.required) {
    findings.push({
      id: 'sampling_without_requirement',
      field: 'requirements.clientModel.required',
      message:
        "A new design adopts sampling, but using the client's model is not a stated product requirement. " +
        'Sampling is deprecated: use direct inference.',
    });
  }
  if (sampling?.delivery === 'live' && workflow.requirements.clientRevisions.includes(MODERN_REVISION)) {
    findings.push({
      id: 'live_sampling_on_2026',
      field: 'design.sampling.delivery',
      message:
        '2026-07-28 has no server-to-client request channel: a live sampling/createMessage cannot be sent. ' +
        'Embed it in an input_required result (MRTR), or serve it only in a 2025-11-25 adapter.',
    });
  }
  if (design.sessions === true) {
    findings.push({
      id: 'sessions',
      field: 'design.sessions',
      message:
        '2026-07-28 has no initialize, no Mcp-Session-Id and no per-connection memory: every request must carry ' +
        'its own _meta and every round its own requestState.',
    });
  }
  if (design.state?.protection === 'none' && design.state.affectsLogic !== false) {
    findings.push({
      id: 'unsigned_state',
      field: 'design.state.protection',
      message:
        'requestState is attacker-controlled and this state affects logic: protect it with HMAC or AEAD and ' +
        'reject what fails verification.',
    });
  }
  if (design.retries?.reuseIds === true) {
    findings.push({
      id: 'retry_reuses_ids',
      field: 'design.retries.reuseIds',
      message: 'A retry is a new request: it must carry a fresh JSON-RPC id.',
    });
  }
  if (design.retries?.changeArguments === true) {
    findings.push({
      id: 'retry_changes_arguments',
      field: 'design.retries.changeArguments',
      message: 'A retry repeats the original method and arguments exactly; state bound to other arguments is refused.',
    });
  }
  const loop = design.clientLoop;
  if (loop !== undefined) {
    const missing = [
      ...(loop.capabilityCheck ? [] : ['a capability check']),
      ...(loop.approval ? [] : ['approval']),
      ...(loop.validation ? [] : ['response validation']),
      ...(loop.roundCap === null ? ['a round cap'] : []),
    ];
    if (missing.length > 0) {
      findings.push({
        id: 'unguarded_client_loop',
        field: 'design.clientLoop',
        message: `The client loop lacks ${words(missing)}: a malicious server could drive a model-spend loop.`,
      });
    }
  }
  if (sampling?.includeContext === 'allServers') {
    findings.push({
      id: 'include_context_all_servers',
      field: 'design.sampling.includeContext',
      message: 'includeContext "allServers" leaks other servers\' context into this prompt: omit it or send "none".',
    });
  }
  return findings;
}

export function refusals(workflow: Workflow): Finding[] {
  const findings: Finding[] = [];
  workflow.steps.forEach((step, index) => {
    if (!isModelStep(step)) return;
    if (step.disclosed === false) {
      findings.push({
        id: 'covert_model_call',
        field: `steps[${index}].disclosed`,
        message: `Step '${step.name}' calls a model without telling the user. Every model call is disclosed.`,
      });
    }
    const forbidden = (step.decides ?? []).filter((use) => (FORBIDDEN_DECISIONS as readonly string[]).includes(use));
    if (forbidden.length > 0) {
      findings.push({
        id: 'model_output_as_authority',
        field: `steps[${index}].decides`,
        message: `Step '${step.name}' lets model output decide ${words(forbidden)}. Model output is data, never a credential or a grant.`,
      });
    }
  });
  // A multi-round design where one deterministic call suffices: every model step could be plain code,
  // or a sampling design whose steps are all deterministic already.
  const modelSteps = workflow.steps.filter(isModelStep);
  if (modelSteps.length > 0 && modelSteps.every((step) => step.replaceableByCode === true)) {
    findings.push({
      id: 'multi_round_where_deterministic_suffices',
      field: 'steps',
      message: 'Every model step could be plain code: one deterministic tools/call suffices, with no model rounds.',
    });
  } else if (modelSteps.length === 0 && workflow.design?.sampling !== undefined) {
    findings.push({
      id: 'multi_round_where_deterministic_suffices',
      field: 'design.sampling',
      message:
        `The ${workflow.design.status ?? 'new'} design keeps ${workflow.design.sampling.delivery === 'mrtr' ? 'an MRTR' : 'a live'} sampling path, ` +
        'but every step is deterministic: one deterministic tools/call suffices, with no model rounds.',
    });
  }
  const identity = workflow.design?.identity;
  if (identity !== undefined && identity !== 'principal') {
    findings.push({
      id: 'metadata_as_identity',
      field: 'design.identity',
      message: `${identity} is self-reported display metadata: identify callers by the authenticated principal.`,
    });
  }
  return findings;
}
