/**
 * `plan --from-audit REPORT` without a workflow file: the workflow inferred from what `audit`
 * observed. Whatever a valid report holds gives a valid workflow, with a note for every adjustment.
 */
import type { AuditReport } from '../audit/types.js';
import { ModelInputError } from '../errors.js';
import { requireToolFlow, statusOf } from './reportFacts.js';
import { schemaProblem, validateWorkflowValue } from './loadWorkflow.js';
import type { Workflow, WorkflowDesign } from './workflow.js';
import { WorkflowInvalidError } from './workflowInvalidError.js';
import { MAX_STEP_TOKENS, MAX_STEPS, TOOL_NAME_PATTERN } from './workflowSchema.js';
import { MODERN_REVISION } from '../protocol/revisions.js';

const CONTEXT_RANK = ['none', 'thisServer', 'allServers'];

/** A workflow inferred from a report, what had to be adjusted to make it one, and which step each key became. */
export interface InferredWorkflow {
  workflow: Workflow;
  notes: string[];
  /** Observed input key -> the inferred step's input key. */
  keys: Map<string, string>;
}

/** A step name and input key the workflow schema accepts, unique among those already taken. */
function uniqueName(key: string, taken: Set<string>): string {
  const base = key.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'step';
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
  taken.add(name);
  return name;
}

function argumentsOf(
  tool: NonNullable<AuditReport['observed']['tool']>,
  notes: string[],
): Workflow['tool']['arguments'] {
  const schema = tool.inputSchema;
  const isObjectSchema =
    typeof schema === 'object' &&
    schema !== null &&
    !Array.isArray(schema) &&
    'type' in schema &&
    schema.type === 'object';
  if (!isObjectSchema) {
    notes.push('The live tool lists no object inputSchema: the plan shows `{"type":"object"}`.');
    return { type: 'object' };
  }
  const problem = schemaProblem(schema);
  if (problem !== undefined) {
    notes.push(`The live tool's inputSchema ${problem}: the plan shows \`{"type":"object"}\`.`);
    return { type: 'object' };
  }
  return schema as Workflow['tool']['arguments'];
}

/** Report fields for the issues of an inferred workflow: an error never names a field the report lacks. */
function reportField(field: string, firstRound: readonly number[]): string {
  if (field.startsWith('tool.name')) return 'observed.tool.name';
  if (field.startsWith('tool.description')) return 'observed.tool.description';
  if (field.startsWith('tool.arguments')) return 'observed.tool.inputSchema';
  if (field.startsWith('server')) return 'observed.server';
  const step = /^steps\[(\d+)\]/.exec(field);
  const round = step === null ? undefined : firstRound[Number(step[1])];
  return round === undefined ? 'observed' : `observed.rounds[${round}]`;
}

/**
 * A workflow inferred from a report: what the live tool does, with nothing stated as a requirement.
 * What the report holds but a workflow may not (no description, a budget over the cap, keys that are
 * not step names, an unusable inputSchema) becomes a placeholder, a cap or a unique name, with a note.
 */
export function inferWorkflow(report: AuditReport): InferredWorkflow {
  const tool = requireToolFlow(report);
  if (!new RegExp(TOOL_NAME_PATTERN).test(tool.name)) {
    throw new ModelInputError(
      'audit_report_invalid',
      `cannot infer a workflow from the audit report: observed.tool.name ${JSON.stringify(tool.name)} must match ` +
        `${TOOL_NAME_PATTERN}; pass a workflow FILE that describes the tool`,
    );
  }
  const notes: string[] = [];
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  const observed = new Map<string, { index: number; method: string; maxTokens: number; tools: number }>();
  report.observed.rounds.forEach((seen, index) => {
    const tokens = seen.maxTokens ?? 1;
    const tools = seen.tools ? 1 : 0;
    const known = observed.get(seen.inputKey);
    if (known === undefined) observed.set(seen.inputKey, { index, method: seen.method, maxTokens: tokens, tools });
    else {
      known.maxTokens = Math.max(known.maxTokens, tokens);
      known.tools += tools;
    }
  });
  const kept = [...observed.entries()].slice(0, MAX_STEPS);
  if (observed.size > MAX_STEPS) {
    notes.push(
      `The live tool asked for ${observed.size} distinct input keys; the inferred workflow keeps the first ${MAX_STEPS}.`,
    );
  }
  const firstRound: number[] = [];
  const steps = kept.map(([key, seen]) => {
    const name = uniqueName(key, taken);
    keys.set(key, name);
    firstRound.push(seen.index);
    if (name !== key) notes.push(`Input key \`${key}\` is not a step name: the inferred step is \`${name}\`.`);
    const maxTokens = Math.min(MAX_STEP_TOKENS, Math.max(1, seen.maxTokens));
    if (maxTokens !== seen.maxTokens) {
      notes.push(
        `\`${key}\`: the live tool asks for ${seen.maxTokens} tokens; the inferred step is clamped to ${maxTokens}.`,
      );
    }
    if (seen.tools > 0) {
      notes.push(
        `\`${key}\` offered tools in ${seen.tools} observed round${seen.tools === 1 ? '' : 's'}: the inferred step runs a ` +
          'tool loop; the report names neither the tools nor the bounds, so the plan shows the defaults.',
      );
    }
    return {
      name,
      kind: 'model' as const,
      purpose: `Answer the embedded ${seen.method} request (observed).`,
      inputKey: name,
      output: { text: 'not declared; observed on the live tool' },
      budget: { maxTokens },
      ...(seen.tools > 0 && { tools: {} }),
    };
  });
  const toolLoop = kept.some(([, seen]) => seen.tools > 0);
  const description = tool.description?.trim() ?? '';
  if (description === '') notes.push('The live tool has no description: the plan shows a placeholder.');
  const server = report.observed.server;
  const hasServer = server !== undefined && server.name.trim() !== '' && server.version.trim() !== '';
  if (server !== undefined && !hasServer)
    notes.push('The live serverInfo is incomplete: the plan shows a placeholder.');

  const worst = report.observed.rounds
    .map((seen) => seen.includeContext ?? 'none')
    .reduce((a, b) => (CONTEXT_RANK.indexOf(b) > CONTEXT_RANK.indexOf(a) ? b : a), 'none');
  const state = report.observed.requestState;
  const design: WorkflowDesign = {
    status: 'existing',
    ...(steps.length > 0 && {
      sampling: {
        delivery: statusOf(report, 'transport.no_server_requests') === 'fail' ? 'live' : 'mrtr',
        includeContext: (CONTEXT_RANK.includes(worst) ? worst : 'allServers') as 'none',
        ...(toolLoop && { tools: true }),
      },
    }),
    sessions: statusOf(report, 'transport.no_sessions') === 'fail',
    ...(state !== undefined && {
      state: {
        protection: statusOf(report, 'mrtr.state_tampered') !== 'pass' ? 'none' : state.readable ? 'hmac' : 'aead',
        affectsLogic: true,
      },
    }),
  };
  const value = {
    version: 1,
    ...(hasServer && { server: { name: server.name, version: server.version } }),
    tool: {
      name: tool.name,
      description: description === '' ? `${tool.name} (as audited; the live tool has no description)` : description,
      arguments: argumentsOf(tool, notes),
    },
    steps:
      steps.length === 0
        ? [{ name: 'call', kind: 'deterministic', purpose: 'The audited tool completes in one call.' }]
        : steps,
    requirements: { clientModel: { required: false }, clientRevisions: [MODERN_REVISION] },
    state: { secret: false },
    design,
  };
  try {
    return { workflow: validateWorkflowValue(value, 'the audit report'), notes, keys };
  } catch (error) {
    if (!(error instanceof WorkflowInvalidError)) throw error;
    const lines = error.issues.map((issue) => `  ${reportField(issue.field, firstRound)}: ${issue.message}`);
    throw new ModelInputError(
      'audit_report_invalid',
      `cannot infer a workflow from the audit report:\n${[...new Set(lines)].join('\n')}`,
      { cause: error },
    );
  }
}

/** The inferred workflow alone (see inferWorkflow). */
export function workflowFromAudit(report: AuditReport): Workflow {
  return inferWorkflow(report).workflow;
}
