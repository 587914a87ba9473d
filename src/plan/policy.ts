/** Sections 6, 7 and 8: state protection, the safety policy, and the removal plan. */
import type { Plan, RoundRow, Wire } from './types.js';
import { usesSamplingTools } from './contract.js';
import type { Workflow } from './workflow.js';

export const SAMPLING_REMOVABLE_ON = '2027-07-28';
export const DEFAULT_STATE_TTL_SECONDS = 300;

/** The declared cap, else two rounds per step (a re-ask each) and a tool loop's rounds plus one. */
export function roundCap(workflow: Workflow, rows: readonly RoundRow[]): number {
  const rounds = rows.reduce((sum, row) => sum + (row.toolLoop === undefined ? 2 : row.toolLoop.maxRounds + 1), 0);
  return workflow.limits?.maxRounds ?? Math.max(1, rounds);
}

function toolLoopPolicy(rows: readonly RoundRow[], wire: Wire): Plan['safety'] {
  const bounds = rows
    .flatMap(({ inputKey, toolLoop: loop }) =>
      loop === undefined
        ? []
        : [`${inputKey}: ${loop.maxCalls} tool calls, ${loop.maxRounds} rounds, ${loop.maxBytes} bytes of results`],
    )
    .join('; ');
  if (bounds === '') return [];
  const client =
    wire === 'inline'
      ? 'the provider never runs a tool itself'
      : 'the client checks the pairing too, shows the tools and calls in its approval, and caps rounds';
  return [
    {
      rule: 'tool loop',
      policy:
        `The server runs every tool itself: read-only tools, under the same access checks and byte budgets as the rest of the tool. Per run: ${bounds}; ` +
        'a bound hit ends the loop with one last round at toolChoice "none". Only offered tools, unique tool_use ids, arguments valid ' +
        `against each inputSchema, exactly one tool_result per tool_use; ${client}.`,
    },
  ];
}

export function buildState(workflow: Workflow, wire: Wire): Plan['state'] {
  if (wire !== 'mrtr') {
    return { applies: false, protection: null, binding: [], ttlSeconds: null, carries: [], notes: [] };
  }
  const proposed = workflow.design?.state?.protection;
  const secret = workflow.state.secret;
  const protection = secret || proposed === 'aead' ? 'AEAD' : 'HMAC';
  const choice = secret
    ? 'AEAD (e.g. AES-256-GCM): the state holds something the client must not read.'
    : protection === 'AEAD'
      ? "Nothing in the state is secret, so HMAC-SHA256 would do; the design's AEAD also covers integrity: keep it."
      : 'HMAC-SHA256: nothing in the state is secret (AEAD would also do).';
  const notes = [
    choice,
    ...(secret && proposed === 'hmac' ? ['The design uses HMAC, but the state is secret: switch to AEAD.'] : []),
    'Reject anything that fails verification with -32602 and a fixed message; log the reason, not the state.',
    'Keys: the first mints, all listed verify; rotate by prepending a key and keeping the old one for one TTL.',
    'Not single-use: a replay within the TTL repeats the same round; enforce single use server-side if needed.',
  ];
  return {
    applies: true,
    protection,
    binding: [
      'authenticated principal (never clientInfo)',
      'method (tools/call) and tool name',
      'digest of the canonical JSON arguments',
      'phase, awaited input key and round count',
      'issued-at and a short expiry',
    ],
    ttlSeconds: workflow.state.ttlSeconds ?? DEFAULT_STATE_TTL_SECONDS,
    carries: workflow.state.carries ?? [],
    notes,
  };
}

function tokenLine(rows: readonly RoundRow[]): string {
  if (rows.length === 0) return 'none';
  const total = rows.reduce((sum, row) => sum + row.budget.maxTokens * (row.toolLoop?.maxRounds ?? 1), 0);
  const each = rows.map(({ inputKey, budget, toolLoop }) =>
    toolLoop === undefined
      ? `${inputKey} ${budget.maxTokens}`
      : `${inputKey} ${budget.maxTokens} in each of its ${toolLoop.maxRounds} loop rounds`,
  );
  return `${each.join(', ')}; at most ${total} per call`;
}

function byteLine(rows: readonly RoundRow[]): string {
  return rows
    .map((row) => {
      const prompt = row.budget.maxPromptBytes === undefined ? '' : `, prompt <= ${row.budget.maxPromptBytes}`;
      return `${row.inputKey}: answer <= ${row.budget.maxResponseBytes}${prompt}`;
    })
    .join('; ');
}

export function buildSafety(workflow: Workflow, wire: Wire, rows: readonly RoundRow[]): Plan['safety'] {
  if (wire === 'none') {
    return [
      { rule: 'model calls', policy: 'None. The tool never calls a model, covertly or otherwise.' },
      { rule: 'validation', policy: 'Arguments validated against inputSchema; invalid ones get -32602.' },
      { rule: 'logging', policy: 'Method, tool, outcome and sizes; never argument content that may be private.' },
    ];
  }
  const mrtr = wire === 'mrtr';
  const legacy = wire === 'legacy';
  const cap = roundCap(workflow, rows);
  return [
    {
      rule: 'approval',
      policy: mrtr
        ? 'The client shows each embedded request (tool, input key, prompt) and runs it only after approval.'
        : legacy
          ? 'The client shows each live sampling request (tool, prompt) and runs it only after approval.'
          : "No client approval round: the tool description discloses the server's model use and its provider.",
    },
    {
      rule: 'round cap',
      policy: mrtr
        ? `${cap} input_required rounds per call (re-asks included), counted in the sealed state; the client caps too.`
        : legacy
          ? `At most ${cap} live sampling requests per tools/call, re-asks included; the client caps too.`
          : `At most ${cap} model calls per tools/call, retries included.`,
    },
    { rule: 'tokens', policy: `maxTokens per round: ${tokenLine(rows)}.` },
    { rule: 'bytes', policy: `${byteLine(rows)}. Larger answers are rejected before parsing.` },
    {
      rule: 'validation',
      policy: 'Per the round table; model output is data, never identity, authorization or consent.',
    },
    ...toolLoopPolicy(rows, wire),
    {
      rule: 'capabilities',
      policy: mrtr
        ? usesSamplingTools(workflow)
          ? 'Embed only what the request declared: -32021 naming sampling.tools unless the request declared it (a step uses tools).'
          : 'Embed only what the request declared: -32021 without sampling; tools in sampling only with sampling.tools.'
        : legacy
          ? usesSamplingTools(workflow)
            ? 'Send sampling/createMessage only to clients that declared sampling.tools at initialize (a step uses tools).'
            : 'Send sampling/createMessage only to clients that declared sampling at initialize; tools only with sampling.tools.'
          : 'No client capability is needed; the server never embeds input requests.',
    },
    ...(mrtr || legacy
      ? [{ rule: 'context', policy: 'includeContext omitted or "none"; send the minimum explicit context.' }]
      : []),
    {
      rule: 'logging',
      policy: 'Method, tool, input key, round, sizes and outcome; never prompt or answer content, never requestState.',
    },
    {
      rule: 'refusal',
      policy: mrtr
        ? 'A declined request ends the flow (no retry, nothing to clean up); an unusable answer gets -32602.'
        : legacy
          ? 'A rejected request (error -1) or an unusable answer ends the call with an isError result and a hint.'
          : 'A provider refusal or unusable answer becomes an isError result with a hint; nothing is invented.',
    },
  ];
}

export function buildRemoval(workflow: Workflow, wire: Wire): Plan['removal'] {
  if (wire === 'mrtr' || wire === 'legacy') {
    return {
      applies: true,
      condition:
        workflow.removal?.condition ??
        (wire === 'legacy'
          ? "2025-11-25 clients no longer need serving (they move to 2026-07-28 and direct inference), or the client's model is no longer a requirement"
          : "every client the tool serves can take a direct-inference result, or the client's model is no longer a requirement"),
      date: workflow.removal?.date ?? SAMPLING_REMOVABLE_ON,
    };
  }
  const design = workflow.design;
  if (design?.sampling !== undefined && (design.status ?? 'new') === 'existing') {
    return {
      applies: true,
      condition:
        wire === 'none'
          ? 'delete the sampling path and its model calls; plain code replaces them'
          : 'the sampling path goes as soon as direct inference ships',
      date: null,
    };
  }
  return {
    applies: false,
    condition:
      design?.sampling !== undefined ? 'the proposed sampling path is never built' : 'the design adopts no sampling',
    date: null,
  };
}
