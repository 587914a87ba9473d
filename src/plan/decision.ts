/**
 * The architecture decision: direct inference unless the client's model is a stated requirement,
 * and no model at all when plain code can do every step. Exactly one verdict.
 */
import type { Plan, Verdict, Wire } from './types.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../protocol/revisions.js';
import { isModelStep, type ModelStep, type Workflow } from './workflow.js';

/** Model steps that need a model (steps plain code could do are dropped). */
export function neededModelSteps(workflow: Workflow): ModelStep[] {
  return workflow.steps.filter(isModelStep).filter((step) => step.replaceableByCode !== true);
}

export function decideVerdict(workflow: Workflow): Verdict {
  if (neededModelSteps(workflow).length === 0) return 'no model required';
  return workflow.requirements.clientModel.required ? 'temporary MRTR compatibility' : 'direct inference';
}

/** Compatibility goes over MRTR, unless no 2026-07-28 client must be served: then only a 2025-11-25 adapter. */
export function wireFor(verdict: Verdict, workflow: Workflow): Wire {
  if (verdict === 'temporary MRTR compatibility') {
    return workflow.requirements.clientRevisions.includes(MODERN_REVISION) ? 'mrtr' : 'legacy';
  }
  return verdict === 'direct inference' ? 'inline' : 'none';
}

function keyList(steps: readonly ModelStep[]): string {
  return steps.map((step) => `\`${step.inputKey}\``).join(', ');
}

export function buildDecision(workflow: Workflow, verdict: Verdict): Plan['decision'] {
  const steps = neededModelSteps(workflow);
  const legacy = workflow.requirements.clientRevisions.includes(LEGACY_REVISION);
  const sampling = workflow.design?.sampling === undefined ? 'none' : (workflow.design.status ?? 'new');
  const why: string[] = [];
  if (verdict === 'no model required') {
    why.push(
      workflow.steps.some(isModelStep)
        ? 'Every model step is marked replaceable by code: plain code does the work.'
        : 'No step needs a model.',
      'One deterministic tools/call answers with a complete result: no sampling, no rounds, no requestState.',
    );
    if (sampling === 'existing') why.push('The existing sampling path and its model calls are removed, not migrated.');
    if (sampling === 'new') why.push('The proposed sampling path is not built.');
    if (legacy) why.push('2025-11-25 clients get the same result through initialize; nothing version-specific.');
    return { architecture: 'deterministic tool (no model)', why };
  }
  if (verdict === 'direct inference') {
    why.push(
      "Using the client's model or credentials is not a stated product requirement.",
      `The server calls its own provider for each model step (${keyList(steps)}) ` +
        'and answers tools/call in one request with a complete result.',
      'The server owns model choice, credentials, budgets, retries and observability; the client declares no ' +
        'sampling capability.',
    );
    if (sampling === 'existing') why.push('The existing sampling path is migrated to direct inference, not kept.');
    if (sampling === 'new') why.push('The proposed sampling path is not built: direct inference replaces it.');
    if (legacy) why.push('2025-11-25 clients get the same complete result; no legacy sampling adapter is needed.');
    return { architecture: 'direct inference (server-owned model)', why };
  }
  const requirement =
    `Using the client's model is a stated product requirement: ${workflow.requirements.clientModel.reason ?? ''}`.trim();
  if (!workflow.requirements.clientRevisions.includes(MODERN_REVISION)) {
    why.push(
      requirement,
      'Only 2025-11-25 clients must be served: they cannot use 2026-07-28 input_required rounds, so no MRTR ' +
        'rounds are planned.',
      `During the deprecation window, a version-specific 2025-11-25 adapter sends live sampling/createMessage for ` +
        `each model step (${keyList(steps)}) on the client's connection, with the same safety policy (section 7): ` +
        'approval, round cap, token and byte limits, validation.',
      'The adapter is the compatibility boundary, not a licence for new session-dependent logic; sampling is ' +
        'deprecated (SEP-2577) and the adapter goes by the removal plan (section 8).',
    );
    return { architecture: "temporary legacy compatibility (client's model over live sampling, 2025-11-25 only)", why };
  }
  why.push(
    requirement,
    `On 2026-07-28 the only way to reach it is MRTR: each model step (${keyList(steps)}) is an input_required ` +
      'result embedding sampling/createMessage; the client retries.',
    'Sampling is deprecated (SEP-2577): this is temporary compatibility with a removal plan (section 8).',
    'Requests that do not declare the sampling capability get -32021 before any work.',
  );
  if (legacy) {
    why.push(
      '2025-11-25 clients: serve live sampling/createMessage only inside a version-specific adapter, with the ' +
        'same approval, caps and validation.',
    );
  }
  return { architecture: "temporary MRTR compatibility (client's model over input_required)", why };
}
