/**
 * Which model sources can serve a flow, and what a flow that offers tools in sampling (SEP-1577) needs of them:
 * the host's model only under a declared `sampling.tools`, a server-owned model only when it `usesTools`.
 */
import { MissingRequiredClientCapabilityError, type CallToolResult } from '@modelcontextprotocol/server';

import type { CompletionModel } from '../models/modelSource.js';
import type { ModelPlan, ModelSource } from '../models/sources.js';
import type { FlowDefinition, FlowState } from './flow.js';
import type { ToolContext } from './tool.js';

/** The model a server-side source runs: a provider, or the flow's own heuristic for `builtin`. */
export function serverModel(
  source: ModelSource,
  flow: FlowDefinition<unknown, FlowState>,
): CompletionModel | undefined {
  if (source.kind === 'server') return source.model;
  return source.kind === 'builtin' ? flow.builtin : undefined;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The capabilities a flow's model sources are chosen under: a flow that offers tools can use the host's model
 * only when the request declared `sampling.tools`; without it the host is as if it could not sample at all.
 */
export function capabilitiesFor(
  flow: FlowDefinition<unknown, FlowState>,
  ctx: ToolContext,
): ToolContext['clientCapabilities'] {
  const declared = ctx.clientCapabilities;
  if (flow.usesTools !== true || declared.sampling === undefined || isObject(declared.sampling.tools)) return declared;
  const { sampling: _withoutTools, ...others } = declared;
  return others;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A flow that offers tools and a request that cannot take them: why, or undefined when it can run. */
export function toolRefusal(
  flow: FlowDefinition<unknown, FlowState>,
  ctx: ToolContext,
  models: ModelPlan,
): CallToolResult | undefined {
  if (flow.usesTools !== true) return undefined;
  const capabilities = capabilitiesFor(flow, ctx);
  for (const key of flow.keys) {
    const source = models.sourceFor(key, capabilities);
    const model = source === undefined ? undefined : serverModel(source, flow);
    if (model !== undefined && model.usesTools !== true) {
      return toolError(
        `${flow.tool} in this mode offers the model tools, and the server's model ${model.name} cannot use tools in ` +
          'sampling. Use the default mode, or ask the server operator for a model with tool calling.',
      );
    }
    // A legacy client without sampling at all gets the engine's usual tool error below.
    if (source !== undefined || ctx.hostUnavailable !== undefined) continue;
    if (ctx.maxSamples !== undefined) {
      return toolError(
        `${flow.tool} in this mode offers the model tools, and the client did not declare sampling.tools at ` +
          'initialize; no server-owned model is configured to answer instead. Use the default mode.',
      );
    }
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { sampling: { tools: {} } } },
      `${flow.tool} in this mode offers the client's model tools ('${key}'), which needs the sampling.tools ` +
        'capability, and this request did not declare it: use a client whose model can call tools, or the default mode.',
    );
  }
  return undefined;
}
