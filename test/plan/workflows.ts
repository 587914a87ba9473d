/** Workflow fixtures for the planner tests: a valid baseline that each test bends one way. */

/** A valid two-step workflow (one deterministic step, one model step), no design. */
export function validWorkflow(): Record<string, any> {
  return {
    version: 1,
    tool: { name: 'demo', description: 'A demo tool.', arguments: { type: 'object', properties: {} } },
    steps: [
      { name: 'fetch', kind: 'deterministic', purpose: 'Fetch the data.' },
      {
        name: 'judge',
        kind: 'model',
        purpose: 'Judge it.',
        inputKey: 'judge',
        output: { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
        budget: { maxTokens: 200 },
      },
    ],
    requirements: { clientModel: { required: false }, clientRevisions: ['2026-07-28'] },
    state: { secret: false },
  };
}

/** The baseline with a clean MRTR design that triggers no finding. */
export function cleanDesign(): Record<string, any> {
  const workflow = validWorkflow();
  workflow.requirements.clientModel = { required: true, reason: 'Hosts keep their own model.' };
  workflow.design = {
    status: 'new',
    sampling: { delivery: 'mrtr', includeContext: 'none' },
    sessions: false,
    state: { protection: 'hmac', affectsLogic: true },
    retries: { reuseIds: false, changeArguments: false },
    clientLoop: { capabilityCheck: true, approval: true, validation: true, roundCap: 4 },
    identity: 'principal',
  };
  return workflow;
}
