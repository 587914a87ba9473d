/**
 * A flow (`FlowDefinition`: model steps that prepare a request and accept its answer) run as a model tool's `run`,
 * on the kit's rounds: what lets a tool written as a flow — `summarize_repo`'s two modes — be a model tool like any
 * other, served by the same kit (codec, keys, single-use store, spills, round cap, usage, events) as the rest.
 *
 * A flow's state says where it is, so it does not replay from the top: the kit's journal holds one checkpoint (the
 * flow's state and its notes when it asked the host), and each round advances the flow from it with the retry's
 * answer — the flow engine's own loop (`advanceFlow` in src/flows/engine.ts), with the same source per step, repair
 * and fallback for a server-side model, replacement of an unusable host answer, notes and usage. A checkpoint too
 * large for the token spills to the store like any journal entry (kit/journal.ts).
 */
import {
  isInputRequiredResult,
  type CallToolResult,
  type CreateMessageRequestParams,
} from '@modelcontextprotocol/server';

import { advanceFlow } from '../flows/engine.js';
import type { FlowDefinition, FlowState } from '../flows/flow.js';
import type { ToolContext } from '../flows/tool.js';
import type { ModelSource } from '../models/sources.js';
import type { ModelKit } from './kit.js';
import type { ModelToolContext, SampleRoute } from './modelTool.js';
import { FLOW_BRIDGE, isLegacy, type FlowBridge } from './replay.js';

/** What a flow's round resumes from. */
interface FlowCheckpoint<State> {
  /** The flow's state when it asked. */
  f: State;
  /** Notes for the final result made in earlier rounds. */
  n?: string[];
}

/** The route a source's answer took. */
function routeOf(source: ModelSource, ctx: ToolContext): SampleRoute {
  if (source.kind === 'host') return isLegacy(ctx) ? 'live' : 'host';
  return source.kind === 'builtin' ? 'builtin' : 'provider';
}

/** The bridge of a context made by this package's kit (the project's flows run only there). */
function bridgeOf(context: ModelToolContext, tool: string): FlowBridge {
  const bridge = (context as Partial<Record<typeof FLOW_BRIDGE, FlowBridge>>)[FLOW_BRIDGE];
  if (bridge === undefined) throw new TypeError(`${tool}: a flow runs only on the kit of the package that defines it`);
  return bridge;
}

/** The request a flow's run serves and the kit it runs on, for a tool of this package that shapes its work by them. */
export function flowCallOf(context: ModelToolContext, tool: string): { toolContext: ToolContext; kit: ModelKit } {
  const { toolContext, kit } = bridgeOf(context, tool);
  return { toolContext, kit };
}

/**
 * Runs one round of `flow`. Refusals that come before any work (no source for a step, a flow with tools and a model
 * without) are the caller's: `refuseUpFront` in the flow engine.
 */
export async function runFlowOnKit<Args, State extends FlowState>(
  flow: FlowDefinition<Args, State>,
  args: Args,
  context: ModelToolContext,
): Promise<CallToolResult> {
  const bridge = bridgeOf(context, flow.tool);
  const { kit } = bridge;
  const { checkpoint, responses } = bridge.resume<FlowCheckpoint<State>>();
  const result = await advanceFlow({
    flow,
    args,
    ctx: bridge.toolContext,
    models: kit.models,
    logger: kit.logger,
    ...(kit.events !== undefined && { events: kit.events }),
    meter: bridge.meter,
    state: checkpoint?.f ?? flow.initial(args),
    responses,
    notes: checkpoint?.n ?? [],
    // The test kit's routes (kit/testing.ts): which source answered each step; the plan chose it, so nothing passed.
    answered: (step, source, model) =>
      kit.events?.routed?.({
        tool: flow.tool,
        step,
        route: routeOf(source, bridge.toolContext),
        source: model,
        passed: [],
      }),
    askHost: (key: string, params: CreateMessageRequestParams, resume: { state: State; notes: string[] }) =>
      bridge.askHost(key, params, { f: resume.state, ...(resume.notes.length > 0 && { n: resume.notes }) }),
  });
  // The host is asked through the bridge, which ends the run: what comes back is a complete result.
  if (isInputRequiredResult(result)) throw new Error(`${flow.tool}: a flow round ended without a result`);
  return result;
}
