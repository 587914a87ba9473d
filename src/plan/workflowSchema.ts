/**
 * The published JSON Schema (draft 2020-12) for workflow files. `schemas/workflow.schema.json` is this
 * object printed by `mcp-model-input plan --schema`; a test keeps the two identical.
 */
import { LEGACY_REVISION, MODERN_REVISION } from '../protocol/revisions.js';

const text = (description: string) => ({ type: 'string', minLength: 1, description });
const flag = (description: string) => ({ type: 'boolean', description });
const IDENTIFIER = '^[A-Za-z0-9_.-]{1,64}$';
const priority = { type: 'number', minimum: 0, maximum: 1 };
/** The largest per-round token budget a workflow may declare, and the most steps it may have. */
export const MAX_STEP_TOKENS = 200000;
export const MAX_STEPS = 32;
export const TOOL_NAME_PATTERN = '^[A-Za-z0-9_.-]{1,128}$';
const MODEL_ONLY = [
  'inputKey',
  'output',
  'budget',
  'preferences',
  'disclosed',
  'decides',
  'replaceableByCode',
  'tools',
];

const step = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'purpose'],
  properties: {
    name: { type: 'string', pattern: IDENTIFIER, description: 'Unique step name.' },
    kind: { enum: ['deterministic', 'model'], description: 'Plain code, or a model call.' },
    purpose: text('What the step does, in one sentence.'),
    inputKey: {
      type: 'string',
      pattern: IDENTIFIER,
      description: 'Model steps: the key of the embedded request on the wire (inputRequests.<key>).',
    },
    output: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      description: 'Model steps: exactly one of a JSON Schema for the answer, or a free-text description.',
      properties: {
        schema: { type: ['object', 'boolean'], description: 'A JSON Schema the parsed answer must satisfy.' },
        text: text('Free text: what the answer must look like.'),
      },
    },
    budget: {
      type: 'object',
      additionalProperties: false,
      required: ['maxTokens'],
      description: 'Model steps: the per-round budget.',
      properties: {
        maxTokens: { type: 'integer', minimum: 1, maximum: MAX_STEP_TOKENS },
        maxResponseBytes: { type: 'integer', minimum: 1, maximum: 16777216 },
        maxPromptBytes: { type: 'integer', minimum: 1, maximum: 16777216 },
      },
    },
    preferences: {
      type: 'object',
      additionalProperties: false,
      description: 'Model steps: advisory modelPreferences (independent priorities, 0..1).',
      properties: {
        costPriority: priority,
        speedPriority: priority,
        intelligencePriority: priority,
        hints: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
    },
    disclosed: flag('Model steps: false when the user is never told this model call happens. Default true.'),
    decides: {
      type: 'array',
      uniqueItems: true,
      minItems: 1,
      items: { enum: ['content', 'selection', 'identity', 'authorization', 'consent'] },
      description: "Model steps: what the answer is used for. Default ['content'].",
    },
    replaceableByCode: flag('Model steps: true when plain code could produce this output.'),
    tools: {
      type: 'object',
      additionalProperties: false,
      description:
        'Model steps: the model is offered tools inside the sampling request (SEP-1577) and the server runs the ' +
        'loop, within these bounds. Needs the sampling.tools capability.',
      properties: {
        names: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', pattern: TOOL_NAME_PATTERN },
          description: 'The tools offered.',
        },
        maxCalls: { type: 'integer', minimum: 1, maximum: 100, description: 'Tool calls per run. Default 12.' },
        maxRounds: {
          type: 'integer',
          minimum: 2,
          maximum: 101,
          description: 'Sampling rounds of the loop, the last one (toolChoice none) included. Default maxCalls + 1.',
        },
        maxBytes: {
          type: 'integer',
          minimum: 1024,
          maximum: 16777216,
          description: 'Bytes of tool results sent to the model per run. Default 65536.',
        },
      },
    },
  },
  allOf: [
    {
      if: { properties: { kind: { const: 'model' } }, required: ['kind'] },
      then: { required: ['inputKey', 'output', 'budget'] },
    },
    {
      if: { properties: { kind: { const: 'deterministic' } }, required: ['kind'] },
      then: { properties: Object.fromEntries(MODEL_ONLY.map((key) => [key, false])) },
    },
  ],
};

const design = {
  type: 'object',
  additionalProperties: false,
  description: 'Optional: an implementation (proposed or existing) for the planner to check.',
  properties: {
    status: { enum: ['new', 'existing'], description: 'A new design, or an existing one being migrated.' },
    sampling: {
      type: 'object',
      additionalProperties: false,
      required: ['delivery'],
      description: "Present when the design uses the client's model through sampling.",
      properties: {
        delivery: { enum: ['mrtr', 'live'], description: 'Embedded in input_required, or a live request.' },
        includeContext: { enum: ['none', 'thisServer', 'allServers'] },
        tools: flag('Tools inside sampling requests (SEP-1577).'),
      },
    },
    sessions: flag('Depends on initialize, Mcp-Session-Id or per-connection memory.'),
    state: {
      type: 'object',
      additionalProperties: false,
      required: ['protection'],
      properties: {
        protection: { enum: ['none', 'hmac', 'aead'] },
        affectsLogic: flag('Whether requestState influences authorization, resource access or logic.'),
      },
    },
    retries: {
      type: 'object',
      additionalProperties: false,
      properties: { reuseIds: flag('Retries reuse JSON-RPC ids.'), changeArguments: flag('Retries change arguments.') },
    },
    clientLoop: {
      type: 'object',
      additionalProperties: false,
      required: ['capabilityCheck', 'approval', 'validation', 'roundCap'],
      properties: {
        capabilityCheck: flag('Refuses input requests for undeclared capabilities.'),
        approval: flag('Shows the user each embedded request before running it.'),
        validation: flag('Validates responses before use.'),
        roundCap: { type: ['integer', 'null'], minimum: 1, description: 'Rounds allowed per call; null for none.' },
      },
    },
    identity: {
      enum: ['principal', 'clientInfo', 'serverInfo', '_meta'],
      description: "Where the server takes the caller's identity from.",
    },
  },
};

export const WORKFLOW_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:mcp-model-input:workflow:1',
  title: 'mcp-model-input workflow',
  description: 'One model-assisted MCP tool, for `mcp-model-input plan`.',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'tool', 'steps', 'requirements', 'state'],
  properties: {
    $schema: { type: 'string' },
    version: { const: 1, description: 'Workflow format version.' },
    server: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version'],
      properties: { name: text('serverInfo.name'), version: text('serverInfo.version') },
    },
    tool: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'description', 'arguments'],
      properties: {
        name: { type: 'string', pattern: TOOL_NAME_PATTERN },
        title: text('Display title.'),
        description: text('The tool description shown to models and users.'),
        arguments: {
          type: 'object',
          required: ['type'],
          properties: { type: { const: 'object' } },
          description: "The tool's inputSchema: a JSON Schema whose type is object.",
        },
      },
    },
    steps: { type: 'array', minItems: 1, maxItems: MAX_STEPS, items: step },
    requirements: {
      type: 'object',
      additionalProperties: false,
      required: ['clientModel', 'clientRevisions'],
      properties: {
        clientModel: {
          type: 'object',
          additionalProperties: false,
          required: ['required'],
          description: "Is using the client's model or credentials a real product requirement?",
          properties: { required: { type: 'boolean' }, reason: text('Why; required when required is true.') },
          if: { properties: { required: { const: true } }, required: ['required'] },
          then: { required: ['reason'] },
        },
        clientRevisions: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: [MODERN_REVISION, LEGACY_REVISION] },
          description: 'Protocol revisions whose clients must be served.',
        },
      },
    },
    state: {
      type: 'object',
      additionalProperties: false,
      required: ['secret'],
      properties: {
        secret: flag('Whether the state between rounds holds anything the client must not read.'),
        carries: { type: 'array', items: { type: 'string', minLength: 1 } },
        ttlSeconds: { type: 'integer', minimum: 1, maximum: 3600 },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: { maxRounds: { type: 'integer', minimum: 1, maximum: 20 } },
    },
    removal: {
      type: 'object',
      additionalProperties: false,
      properties: {
        condition: text('When the compatibility path goes.'),
        date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      },
    },
    design,
  },
} as const;
