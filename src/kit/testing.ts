/**
 * The test kit for tool authors (`mcp-model-input/testing`): `testModelTool(tool, { client, model })` runs a model
 * tool in process, as the server runs it, against a client profile — what real hosts declare today — with the
 * client's model answers scripted, and returns the result, the rounds, and the route each question took and why.
 *
 * Profiles: `mrtr-sampling` (2026-07-28, sampling with tools, form elicitation), `mrtr-no-sampling` (2026-07-28,
 * roots and form elicitation only: Claude Code), `legacy-sampling` (2025-11-25 with sampling: VS Code),
 * `legacy-no-sampling` (2025-11-25 without: Claude Desktop, Cursor), `declines` (2026-07-28 with sampling, whose
 * user declines every sampling round: the host starts the call again without sampling, as the host runtime's
 * `onDeny: 'fallback'` does).
 */
import {
  ProtocolError,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import type { ToolContext } from '../flows/tool.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../protocol/revisions.js';
import { createModelKit, type ModelKitOptions, type RouteRecord } from './kit.js';
import type { ModelTool } from './modelTool.js';
import { runModelTool } from './runModelTool.js';

export type ClientProfileName =
  'mrtr-sampling' | 'mrtr-no-sampling' | 'legacy-sampling' | 'legacy-no-sampling' | 'declines';

export interface ClientProfile {
  name: ClientProfileName;
  /** Who behaves like this today (documentation). */
  like: string;
  revision: typeof MODERN_REVISION | typeof LEGACY_REVISION;
  capabilities: ClientCapabilities;
  /** The user declines every sampling round. */
  declines?: boolean;
}

export const CLIENT_PROFILES: Readonly<Record<ClientProfileName, ClientProfile>> = {
  'mrtr-sampling': {
    name: 'mrtr-sampling',
    like: 'a 2026-07-28 client lending its model, with tools in sampling',
    revision: MODERN_REVISION,
    capabilities: { sampling: { tools: {} }, elicitation: { form: {} } },
  },
  'mrtr-no-sampling': {
    name: 'mrtr-no-sampling',
    like: 'Claude Code on 2026-07-28: roots and form elicitation, no sampling',
    revision: MODERN_REVISION,
    capabilities: { roots: {}, elicitation: { form: {} } },
  },
  'legacy-sampling': {
    name: 'legacy-sampling',
    like: 'VS Code on 2025-11-25: live sampling',
    revision: LEGACY_REVISION,
    capabilities: { sampling: {}, elicitation: {} },
  },
  'legacy-no-sampling': {
    name: 'legacy-no-sampling',
    like: 'Claude Desktop, Cursor on 2025-11-25: no sampling',
    revision: LEGACY_REVISION,
    capabilities: {},
  },
  declines: {
    name: 'declines',
    like: 'a 2026-07-28 client whose user declines every sampling round',
    revision: MODERN_REVISION,
    capabilities: { sampling: {}, elicitation: { form: {} } },
    declines: true,
  },
};

/** The client's model: a text per step (a list: one per question of that step, in order), or a function. */
export type ScriptedClientModel =
  Readonly<Record<string, string | readonly string[]>> | ((step: string, request: unknown) => string);

export interface TestModelToolOptions {
  client: ClientProfileName | ClientProfile;
  /** What the client's model answers (default: `(client model)` for every question). */
  model?: ScriptedClientModel;
  /** The tool's arguments (validated by its input schema). */
  args?: Record<string, unknown>;
  /** The server's model plan (default `host,builtin`), its root and other kit options. */
  server?: ModelKitOptions;
  /** The user's answer to an elicitation (default: decline). */
  elicit?: (key: string, params: unknown) => ElicitResult;
  /** Rounds before the test gives up (default 10). */
  maxRounds?: number;
}

export interface TestRound {
  /** The input keys the round asked for, with their methods. */
  requests: Array<{ key: string; method: string }>;
  /** Declined by the user (the `declines` profile). */
  declined?: boolean;
}

export interface TestModelToolResult {
  /** The tool's result, unless the call ended with a protocol error. */
  result?: CallToolResult;
  /** The JSON-RPC error the client got (e.g. -32021), if any. */
  error?: { code: number; message: string };
  rounds: TestRound[];
  /** How each question was routed: `route` (provider, host, live, builtin) and why earlier sources did not answer. */
  routes: RouteRecord[];
}

function answerFor(model: ScriptedClientModel | undefined, step: string, request: unknown, asked: Map<string, number>) {
  const step0 = step.replace(/_\d+$/, '');
  const count = asked.get(step0) ?? 0;
  asked.set(step0, count + 1);
  if (model === undefined) return '(client model)';
  if (typeof model === 'function') return model(step0, request);
  const scripted = model[step0];
  if (scripted === undefined) return '(client model)';
  return typeof scripted === 'string' ? scripted : (scripted[Math.min(count, scripted.length - 1)] ?? '(client model)');
}

const isRound = (value: CallToolResult | InputRequiredResult): value is InputRequiredResult =>
  (value as { resultType?: string }).resultType === 'input_required';

export async function testModelTool(tool: ModelTool, options: TestModelToolOptions): Promise<TestModelToolResult> {
  const profile = typeof options.client === 'string' ? CLIENT_PROFILES[options.client] : options.client;
  const routes: RouteRecord[] = [];
  const kit = createModelKit({
    models: 'host,builtin',
    ...options.server,
    events: { ...options.server?.events, routed: (record) => routes.push(record) },
  });
  const args = tool.input.parse(options.args ?? {});
  const legacy = profile.revision === LEGACY_REVISION;
  const rounds: TestRound[] = [];
  const asked = new Map<string, number>();
  let capabilities = profile.capabilities;
  let requestState: unknown;
  let inputResponses: Record<string, unknown> | undefined;
  const limit = options.maxRounds ?? 10;
  try {
    for (;;) {
      const ctx: ToolContext = {
        principal: 'test',
        clientName: profile.name,
        clientCapabilities: capabilities,
        requestState,
        inputResponses,
        signal: new AbortController().signal,
        progress: async () => {},
        log: async () => {},
        ...(legacy && { maxSamples: limit }),
        ...(legacy &&
          capabilities.sampling === undefined && {
            hostUnavailable: 'the client did not declare the sampling capability at initialize',
            samplingUndeclared: true,
          }),
      };
      const outcome = await runModelTool(tool, kit, args, ctx);
      if (!isRound(outcome)) return { result: outcome, rounds, routes };
      const requests = Object.entries(outcome.inputRequests ?? {}).map(([key, request]) => ({
        key,
        method: request.method,
        params: request.params,
      }));
      const declining = profile.declines === true && requests.some((r) => r.method === 'sampling/createMessage');
      rounds.push({
        requests: requests.map(({ key, method }) => ({ key, method })),
        ...(declining && { declined: true }),
      });
      if (rounds.length > limit) throw new Error(`${tool.name}: more than ${limit} rounds`);
      if (declining) {
        // The host starts the call again, without sampling: the server's own model may answer.
        const { sampling: _declined, ...without } = capabilities;
        capabilities = without;
        requestState = undefined;
        inputResponses = undefined;
        continue;
      }
      inputResponses = Object.fromEntries(
        requests.map(({ key, method, params }) => [
          key,
          method === 'elicitation/create'
            ? (options.elicit?.(key, params) ?? { action: 'decline' })
            : {
                role: 'assistant',
                content: { type: 'text', text: answerFor(options.model, key, params, asked) },
                model: `${profile.name}-model`,
                stopReason: 'endTurn',
              },
        ]),
      );
      requestState = outcome.requestState;
    }
  } catch (error) {
    if (error instanceof ProtocolError) return { error: { code: error.code, message: error.message }, rounds, routes };
    throw error;
  }
}
