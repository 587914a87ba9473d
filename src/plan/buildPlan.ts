/** Assembles the plan for a validated workflow: decision, contract, rounds, policies, findings, verdict. */
import { buildDiscovery, buildEnvelope, buildRetry, usesSamplingTools } from './contract.js';
import { buildDecision, decideVerdict, wireFor } from './decision.js';
import { hardRejects, refusals } from './findings.js';
import { buildRemoval, buildSafety, buildState } from './policy.js';
import { buildRoundsFromWorkflow } from './rounds.js';
import { PLAN_FORMAT, type Plan, type Wire } from './types.js';
import type { Workflow } from './workflow.js';

export interface BuildPlanOptions {
  /** Replaces the declared round table (e.g. with what an audit observed on the live tool). */
  rounds?: (workflow: Workflow, wire: Wire) => Plan['rounds'];
}

export function buildPlan(workflow: Workflow, options: BuildPlanOptions = {}): Plan {
  const verdict = decideVerdict(workflow);
  const wire = wireFor(verdict, workflow);
  const rounds = (options.rounds ?? buildRoundsFromWorkflow)(workflow, wire);
  return {
    format: PLAN_FORMAT,
    tool: workflow.tool.name,
    decision: buildDecision(workflow, verdict),
    discovery: buildDiscovery(workflow),
    envelope: buildEnvelope(workflow, wire),
    rounds,
    retry: buildRetry(wire, usesSamplingTools(workflow)),
    state: buildState(workflow, wire),
    safety: buildSafety(workflow, wire, rounds.rows),
    removal: buildRemoval(workflow, wire),
    findings: { hardRejects: hardRejects(workflow), refusals: refusals(workflow) },
    verdict,
  };
}
