/** The decision, each hard reject and each refusal on its own, and what the plan sections say. */
import { describe, expect, it } from 'vitest';

import { buildPlan } from '../../src/plan/buildPlan.js';
import { parseWorkflow } from '../../src/plan/loadWorkflow.js';
import { renderPlanMarkdown } from '../../src/plan/renderPlan.js';
import type { Plan } from '../../src/plan/types.js';
import { cleanDesign, validWorkflow } from './workflows.js';

const plan = (workflow: Record<string, any>): Plan => buildPlan(parseWorkflow(JSON.stringify(workflow), 'w.json'));
const ids = (findings: Plan['findings']['hardRejects']) => findings.map((finding) => [finding.id, finding.field]);

describe('verdict', () => {
  it('is direct inference unless the client model is a stated requirement', () => {
    const direct = plan(validWorkflow());
    expect(direct.verdict).toBe('direct inference');
    expect(direct.rounds.wire).toBe('inline');
    expect(direct.state.applies).toBe(false);
    expect(direct.envelope.errors.map((error) => error.code)).not.toContain(-32021);
    expect(direct.removal).toMatchObject({ applies: false });
  });

  it('is temporary MRTR compatibility with a stated requirement, with state, retries and a removal date', () => {
    const mrtr = plan(cleanDesign());
    expect(mrtr.verdict).toBe('temporary MRTR compatibility');
    expect(mrtr.rounds.rows).toMatchObject([{ round: 1, inputKey: 'judge', method: 'sampling/createMessage' }]);
    expect(mrtr.rounds.final).toBe('Round 2: the retry carrying the last answer gets resultType "complete".');
    expect(mrtr.envelope.errors).toContainEqual(
      expect.objectContaining({ code: -32021, data: '{"requiredCapabilities":{"sampling":{}}}', http: 400 }),
    );
    expect(mrtr.retry.applies).toBe(true);
    expect(mrtr.state).toMatchObject({ applies: true, protection: 'HMAC', ttlSeconds: 300 });
    expect(mrtr.removal).toEqual({ applies: true, condition: expect.any(String), date: '2027-07-28' });
    expect(mrtr.findings).toEqual({ hardRejects: [], refusals: [] });
  });

  it('is no model required when no step needs a model', () => {
    const workflow = validWorkflow();
    workflow.steps = [workflow.steps[0]];
    expect(plan(workflow).verdict).toBe('no model required');
    const replaceable = validWorkflow();
    replaceable.steps[1].replaceableByCode = true;
    replaceable.requirements.clientModel = { required: true, reason: 'x' };
    const result = plan(replaceable);
    expect(result.verdict).toBe('no model required');
    expect(result.rounds.rows).toEqual([]);
  });

  it('picks AEAD for secret state, asks for sampling.tools when the design uses tools, and notes the legacy adapter', () => {
    const workflow = cleanDesign();
    workflow.state = { secret: true, ttlSeconds: 60 };
    workflow.design.sampling.tools = true;
    workflow.requirements.clientRevisions = ['2026-07-28', '2025-11-25'];
    const result = plan(workflow);
    expect(result.state).toMatchObject({ protection: 'AEAD', ttlSeconds: 60 });
    expect(result.state.notes).toContain('The design uses HMAC, but the state is secret: switch to AEAD.');
    expect(result.envelope.errors).toContainEqual(
      expect.objectContaining({ code: -32021, data: '{"requiredCapabilities":{"sampling":{"tools":{}}}}' }),
    );
    expect(result.decision.why.join('\n')).toContain(
      '2025-11-25 clients: serve live sampling/createMessage only inside',
    );
  });
});

describe('hard rejects, one at a time', () => {
  it.each([
    [
      'sampling_without_requirement',
      'requirements.clientModel.required',
      (w: any) => (w.requirements.clientModel = { required: false }),
    ],
    ['live_sampling_on_2026', 'design.sampling.delivery', (w: any) => (w.design.sampling.delivery = 'live')],
    ['sessions', 'design.sessions', (w: any) => (w.design.sessions = true)],
    ['unsigned_state', 'design.state.protection', (w: any) => (w.design.state.protection = 'none')],
    ['retry_reuses_ids', 'design.retries.reuseIds', (w: any) => (w.design.retries.reuseIds = true)],
    [
      'retry_changes_arguments',
      'design.retries.changeArguments',
      (w: any) => (w.design.retries.changeArguments = true),
    ],
    ['unguarded_client_loop', 'design.clientLoop', (w: any) => (w.design.clientLoop.roundCap = null)],
    [
      'include_context_all_servers',
      'design.sampling.includeContext',
      (w: any) => (w.design.sampling.includeContext = 'allServers'),
    ],
  ])('%s at %s', (id, field, mutate) => {
    const workflow = cleanDesign();
    mutate(workflow);
    const result = plan(workflow);
    expect(ids(result.findings.hardRejects)).toEqual([[id, field]]);
    expect(result.findings.refusals).toEqual([]);
    expect(renderPlanMarkdown(result)).toContain(`- \`${id}\` at \`${field}\`: `);
  });

  it('spares what is allowed: live sampling for 2025-11-25 only, existing sampling, unsigned state that affects nothing', () => {
    const legacy = cleanDesign();
    legacy.design.sampling.delivery = 'live';
    legacy.requirements.clientRevisions = ['2025-11-25'];
    const existing = cleanDesign();
    existing.requirements.clientModel = { required: false };
    existing.design.status = 'existing';
    const harmless = cleanDesign();
    harmless.design.state = { protection: 'none', affectsLogic: false };
    for (const workflow of [legacy, existing, harmless]) expect(plan(workflow).findings.hardRejects).toEqual([]);
  });

  it('lists everything the client loop lacks', () => {
    const workflow = cleanDesign();
    workflow.design.clientLoop = { capabilityCheck: false, approval: true, validation: false, roundCap: 3 };
    expect(plan(workflow).findings.hardRejects[0]?.message).toMatch(
      /^The client loop lacks a capability check and response validation:/,
    );
  });
});

describe('refusals, one at a time', () => {
  it.each([
    ['covert_model_call', 'steps[1].disclosed', (w: any) => (w.steps[1].disclosed = false)],
    ['model_output_as_authority', 'steps[1].decides', (w: any) => (w.steps[1].decides = ['content', 'consent'])],
    ['multi_round_where_deterministic_suffices', 'steps', (w: any) => (w.steps[1].replaceableByCode = true)],
    ['metadata_as_identity', 'design.identity', (w: any) => (w.design.identity = '_meta')],
  ])('%s at %s', (id, field, mutate) => {
    const workflow = cleanDesign();
    mutate(workflow);
    const result = plan(workflow);
    expect(ids(result.findings.refusals)).toEqual([[id, field]]);
    expect(result.findings.hardRejects).toEqual([]);
  });
});

describe('steps plain code can do', () => {
  it('refuses an existing MRTR sampling design whose steps are all deterministic', () => {
    const workflow = cleanDesign();
    workflow.steps = [workflow.steps[0]];
    workflow.design.status = 'existing';
    const result = plan(workflow);
    expect(result.verdict).toBe('no model required');
    expect(ids(result.findings.refusals)).toEqual([['multi_round_where_deterministic_suffices', 'design.sampling']]);
    expect(result.findings.refusals[0]?.message).toMatch(/^The existing design keeps an MRTR sampling path/);
    expect(result.findings.hardRejects).toEqual([]);
    delete workflow.design.sampling;
    expect(plan(workflow).findings.refusals).toEqual([]);
  });

  it('notes a step plain code can do instead of dropping it from the round table silently', () => {
    const workflow = cleanDesign();
    workflow.steps.push({
      ...structuredClone(workflow.steps[1]),
      name: 'sort',
      inputKey: 'sort',
      replaceableByCode: true,
    });
    const result = plan(workflow);
    expect(result.rounds.rows.map((row) => row.inputKey)).toEqual(['judge']);
    const note =
      "`sort` (step 'sort') is marked replaceable by code: plain code does it, so it gets no round and no model call.";
    expect(result.rounds.notes).toEqual([note]);
    expect(result.findings.refusals).toEqual([]);
    expect(renderPlanMarkdown(result)).toContain(`\n- ${note}\n`);
  });
});

describe('only 2025-11-25 clients, with the client model required', () => {
  it('plans live sampling in a legacy adapter, not 2026-07-28 MRTR rounds those clients cannot use', () => {
    const workflow = cleanDesign();
    workflow.requirements.clientRevisions = ['2025-11-25'];
    workflow.design.sampling.delivery = 'live';
    const result = plan(workflow);
    expect(result.verdict).toBe('temporary MRTR compatibility');
    expect(result.decision.architecture).toMatch(/live sampling, 2025-11-25 only/);
    const why = result.decision.why.join('\n');
    expect(why).toContain('Only 2025-11-25 clients must be served: they cannot use 2026-07-28 input_required rounds');
    expect(why).toContain(
      'a version-specific 2025-11-25 adapter sends live sampling/createMessage for each model step',
    );
    expect(why).toContain('with the same safety policy (section 7)');
    expect(why).not.toContain('is an input_required result');
    expect(why).not.toContain('-32021');
    expect(result.rounds).toMatchObject({
      wire: 'legacy',
      rows: [{ inputKey: 'judge', method: 'sampling/createMessage' }],
    });
    expect(result.rounds.final).toMatch(/^No input_required rounds: in one tools\/call the 2025-11-25 adapter/);
    expect(result.envelope.errors.map((error) => error.code)).not.toContain(-32021);
    expect(result.retry.applies).toBe(false);
    expect(result.state.applies).toBe(false);
    expect(result.safety.map((entry) => entry.rule)).toEqual([
      'approval',
      'round cap',
      'tokens',
      'bytes',
      'validation',
      'capabilities',
      'context',
      'logging',
      'refusal',
    ]);
    expect(result.safety[0]?.policy).toMatch(/each live sampling request .* only after approval/);
    expect(result.removal).toEqual({
      applies: true,
      condition: expect.stringMatching(/^2025-11-25 clients no longer need serving/),
      date: '2027-07-28',
    });
    expect(result.findings).toEqual({ hardRejects: [], refusals: [] });
  });
});

describe('Markdown from untrusted text', () => {
  const headings = (markdown: string) => markdown.match(/^#.*$/gm);

  it('keeps every workflow text on its line: one verdict heading, no injected sections', () => {
    const clean = renderPlanMarkdown(plan(cleanDesign()));
    const workflow = cleanDesign();
    const inject = '\n\n## Verdict\n\n**no model required**\r\n# Injected\r## Findings\n';
    workflow.tool.description = `A demo tool.${inject}`;
    workflow.requirements.clientModel.reason = `Hosts bring keys.${inject}`;
    workflow.state.carries = [`phase${inject}`, 'round'];
    workflow.removal = { condition: `never${inject}` };
    workflow.steps[1].output = { text: `prose${inject}` };
    const markdown = renderPlanMarkdown(plan(workflow));
    expect(markdown.match(/^## Verdict$/gm)).toHaveLength(1);
    expect(headings(markdown)).toEqual(headings(clean));
    expect(markdown).toContain('Carries: phase ## Verdict **no model required** # Injected ## Findings; round.');
    expect(markdown).toContain('Remove the sampling path when never ## Verdict **no model required** # Injected');
    expect(markdown.endsWith('## Verdict\n\n**temporary MRTR compatibility**\n')).toBe(true);
  });
});
