/**
 * `plan --from-source DIR`: the planner's workflow for each sampling tool of a TypeScript server, inferred from
 * its code — the tool's name, description and input, one model step per sampling call site (its `maxTokens`,
 * model preferences, system prompt, tools in sampling and the loop around it), the capabilities it uses, and the
 * design it has today (live sampling, or a hand-built MRTR state machine). Nothing is stated as a product
 * requirement: code cannot say that the client's model is one.
 */
import { Node, SyntaxKind, type Expression, type ObjectLiteralExpression, type SourceFile } from 'ts-morph';

import { ModelInputError } from '../errors.js';
import { validateWorkflowValue } from '../plan/loadWorkflow.js';
import type { ModelPreferencesHint, ModelStep, Workflow, WorkflowDesign } from '../plan/workflow.js';
import { MAX_STEP_TOKENS, MAX_STEPS } from '../plan/workflowSchema.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../protocol/revisions.js';
import { analyzeFile, type HandlerAnalysis, type SiteAnalysis } from './analyzeFile.js';
import { inputSchemaOf } from './schemaFromZod.js';
import { loadSources } from './sourceFiles.js';
import { snakeCase, uniqueName } from './textEdits.js';

/** Used when a call's `maxTokens` is not a literal the planner can read. */
const DEFAULT_MAX_TOKENS = 1000;
const CONTEXT_RANK = ['none', 'thisServer', 'allServers'] as const;
/** The planner's bounds of a tool loop's rounds. */
const LOOP_ROUNDS = { min: 2, max: 101 };
const MAX_LIMIT_ROUNDS = 20;

export interface SourceWorkflow {
  workflow: Workflow;
  /** What the inference had to assume, and what the code uses that a workflow has no field for. */
  notes: string[];
}

function property(params: Expression | undefined, name: string): Node | undefined {
  if (params === undefined || !Node.isObjectLiteralExpression(params)) return undefined;
  const found = params.getProperty(name);
  return found !== undefined && Node.isPropertyAssignment(found) ? found.getInitializer() : undefined;
}

function literal(node: Node | undefined): string | number | undefined {
  if (node === undefined) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  return undefined;
}

function preferencesOf(node: Node | undefined): ModelPreferencesHint | undefined {
  if (node === undefined || !Node.isObjectLiteralExpression(node)) return undefined;
  const preferences: ModelPreferencesHint = {};
  for (const key of ['costPriority', 'speedPriority', 'intelligencePriority'] as const) {
    const value = literal(property(node as ObjectLiteralExpression, key) as Expression | undefined);
    if (typeof value === 'number' && value >= 0 && value <= 1) preferences[key] = value;
  }
  const hints = property(node as ObjectLiteralExpression, 'hints');
  if (hints !== undefined && Node.isArrayLiteralExpression(hints)) {
    const names = hints
      .getElements()
      .map((hint) => literal(property(hint as Expression, 'name') as Expression | undefined))
      .filter((name): name is string => typeof name === 'string');
    if (names.length > 0) preferences.hints = names;
  }
  return Object.keys(preferences).length > 0 ? preferences : undefined;
}

function toolNamesOf(node: Node): string[] | undefined {
  if (!Node.isArrayLiteralExpression(node)) return undefined;
  const names = node
    .getElements()
    .map((tool) => literal(property(tool as Expression, 'name') as Expression | undefined));
  return names.every((name): name is string => typeof name === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(name)) &&
    new Set(names).size === names.length &&
    names.length > 0
    ? names
    : undefined;
}

function where(site: SiteAnalysis): string {
  return `${site.location.file}:${site.location.line}`;
}

function stepOf(site: SiteAnalysis, name: string, notes: string[]): ModelStep {
  const params = site.sampling.params;
  const tokens = literal(property(params, 'maxTokens') as Expression | undefined);
  let maxTokens = typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 1 ? tokens : DEFAULT_MAX_TOKENS;
  if (maxTokens !== tokens)
    notes.push(
      `\`${name}\` (${where(site)}): maxTokens is not a literal the planner reads; the plan assumes ${DEFAULT_MAX_TOKENS}.`,
    );
  if (maxTokens > MAX_STEP_TOKENS) {
    notes.push(`\`${name}\` (${where(site)}): maxTokens ${maxTokens} is clamped to ${MAX_STEP_TOKENS}.`);
    maxTokens = MAX_STEP_TOKENS;
  }
  const system = literal(property(params, 'systemPrompt') as Expression | undefined);
  const preferences = preferencesOf(property(params, 'modelPreferences'));
  const tools = property(params, 'tools');
  const loop = site.loop;
  const purpose =
    `Answer the sampling request at ${where(site)} (${site.sampling.kind})` +
    (typeof system === 'string' ? `; system prompt: ${JSON.stringify(system.slice(0, 120))}` : '') +
    '.';
  const step: ModelStep = {
    name,
    kind: 'model',
    purpose,
    inputKey: name,
    output: { text: 'free text (as the code reads it)' },
    budget: { maxTokens },
    ...(preferences !== undefined && { preferences }),
  };
  if (tools !== undefined) {
    const names = toolNamesOf(tools);
    const rounds = loop?.bound;
    step.tools = {
      ...(names !== undefined && { names }),
      ...(rounds !== undefined &&
        rounds >= LOOP_ROUNDS.min &&
        rounds <= LOOP_ROUNDS.max && { maxRounds: rounds, maxCalls: Math.min(100, rounds - 1) }),
    };
    notes.push(
      `\`${name}\` (${where(site)}) offers the model tools (SEP-1577)` +
        (names === undefined ? ', named outside the call: the plan does not list them' : '') +
        (loop === undefined
          ? '; no loop around the call: the server answers at most one round of tool calls'
          : `; the ${loop.kind} loop at line ${loop.line} runs the tool loop, ${
              loop.bound === undefined
                ? 'with no bound the planner can read: the plan shows the default bounds'
                : `bounded by ${loop.bound} rounds`
            }`) +
        '.',
    );
  } else if (loop !== undefined) {
    notes.push(
      `\`${name}\` (${where(site)}) sits in a ${loop.kind} loop (line ${loop.line}): one round per iteration, ${
        loop.bound === undefined ? 'with no bound the planner can read' : `at most ${loop.bound}`
      }.`,
    );
  }
  return step;
}

function capabilityNotes(handler: HandlerAnalysis, tool: string): string[] {
  const text = handler.registration.handler.getText();
  return [
    ...(/elicitInput\s*\(|inputRequired\.elicit(Url)?\s*\(/.test(text)
      ? [
          `\`${tool}\` also asks the user through elicitation (a workflow has no field for it: plan it with the kit's ctx.elicit).`,
        ]
      : []),
    ...(/listRoots\s*\(/.test(text) ? [`\`${tool}\` also lists the client's roots.`] : []),
  ];
}

/** `new McpServer({ name: '…', version: '…' })` in the file: the plan's serverInfo. */
function serverInfoOf(file: SourceFile): { name: string; version: string } | undefined {
  for (const created of file.getDescendantsOfKind(SyntaxKind.NewExpression)) {
    if (!/^(McpServer|Server)$/.test(created.getExpression().getText())) continue;
    const [info] = created.getArguments();
    const name = literal(property(info as Expression | undefined, 'name') as Expression | undefined);
    const version = literal(property(info as Expression | undefined, 'version') as Expression | undefined);
    if (typeof name === 'string' && typeof version === 'string' && name.trim() !== '' && version.trim() !== '') {
      return { name, version };
    }
  }
  return undefined;
}

function workflowOf(handler: HandlerAnalysis, usesSessions: boolean): SourceWorkflow {
  const { registration } = handler;
  const notes: string[] = [];
  const toolName =
    registration.name !== undefined && /^[A-Za-z0-9_.-]{1,128}$/.test(registration.name)
      ? registration.name
      : snakeCase(registration.nameNode.getText()) || 'tool';
  if (toolName !== registration.name)
    notes.push(`The tool's name is not a literal the planner reads: shown as \`${toolName}\`.`);
  const taken = new Set<string>();
  const sites = handler.sites.slice(0, MAX_STEPS);
  const steps = sites.map((site) => stepOf(site, uniqueName(site.step ?? snakeCase(toolName), taken), notes));
  const live = sites.some((site) => site.sampling.kind !== 'inputRequired');
  const worstContext = sites
    .map((site) => literal(property(site.sampling.params, 'includeContext') as Expression | undefined))
    .filter((value): value is (typeof CONTEXT_RANK)[number] => CONTEXT_RANK.includes(value as 'none'))
    .reduce<(typeof CONTEXT_RANK)[number]>(
      (a, b) => (CONTEXT_RANK.indexOf(b) > CONTEXT_RANK.indexOf(a) ? b : a),
      'none',
    );
  const design: WorkflowDesign = {
    status: 'existing',
    sampling: {
      delivery: live ? 'live' : 'mrtr',
      includeContext: worstContext,
      ...(steps.some((step) => step.tools !== undefined) && { tools: true }),
    },
    sessions: usesSessions,
  };
  const loopRounds = sites.reduce((sum, site, index) => {
    const looped = site.loop !== undefined && steps[index]?.tools === undefined;
    return sum + (looped ? 2 * (site.loop?.bound ?? 1) : 2);
  }, 0);
  const boundedLoops = sites.some((site, index) => site.loop?.bound !== undefined && steps[index]?.tools === undefined);
  const description = literal(registration.description);
  if (typeof description !== 'string')
    notes.push(`\`${toolName}\` has no literal description: the plan shows a placeholder.`);
  const server = serverInfoOf(registration.call.getSourceFile());
  const value = {
    version: 1,
    ...(server !== undefined && { server }),
    tool: {
      name: toolName,
      ...(typeof literal(registration.title) === 'string' && { title: literal(registration.title) }),
      description:
        typeof description === 'string' && description.trim() !== ''
          ? description
          : `${toolName} (inferred from source)`,
      arguments: inputSchemaOf(registration.input, notes, toolName),
    },
    steps,
    requirements: {
      clientModel: { required: false },
      clientRevisions: live ? [MODERN_REVISION, LEGACY_REVISION] : [MODERN_REVISION],
    },
    state: { secret: false },
    ...(boundedLoops && { limits: { maxRounds: Math.min(MAX_LIMIT_ROUNDS, Math.max(steps.length, loopRounds)) } }),
    design,
  };
  notes.push(
    ...capabilityNotes(handler, toolName),
    `Inferred from ${sites[0]?.location.file ?? 'source'}: the code states no product requirement for the client's model.`,
  );
  try {
    return { workflow: validateWorkflowValue(value, `the source of ${toolName}`), notes };
  } catch (error) {
    throw new ModelInputError(
      'workflow_invalid',
      `cannot infer a workflow for ${toolName} from its source: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/** The workflow of every tool under root that asks for sampling, in file and source order. */
export async function workflowsFromSource(root: string): Promise<{ workflows: SourceWorkflow[]; problems: string[] }> {
  const sources = await loadSources(root);
  const found: SourceWorkflow[] = [];
  for (const [path, file] of sources.files) {
    const analysis = analyzeFile(path, file);
    const sessions = /sessionIdGenerator\s*:\s*(?!undefined\b)/.test(file.getFullText());
    for (const handler of analysis.handlers) {
      const result = workflowOf(handler, sessions);
      if (sessions) result.notes.push(`${path} serves sessions (a sessionIdGenerator): the plan's design says so.`);
      found.push(result);
    }
    for (const site of analysis.loose) {
      found
        .at(-1)
        ?.notes.push(`A sampling call outside any tool handler at ${path}:${site.location.line} is not planned.`);
    }
  }
  for (const problem of sources.problems) {
    found.at(-1)?.notes.push(`${problem.file}:${problem.line} ${problem.reason}: not read.`);
  }
  return {
    workflows: found,
    problems: sources.problems.map((problem) => `${problem.file}:${problem.line} ${problem.reason}`),
  };
}
