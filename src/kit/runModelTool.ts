/**
 * One `tools/call` of a model tool on the kit: open the round (verify the sealed state: principal, method, tool,
 * arguments, single use), bring back spilled journal entries, replay `run` from the top, and then either finish
 * (the result, its notes) or ask the host — seal the journal with the pending question, spilling its largest
 * entries to the store when it would not fit inline, and answer `input_required`.
 *
 * Failures: a question no source can answer is -32021 when the host would answer it under a capability the request
 * did not declare (2026-07-28), otherwise an `isError` result naming the step and what would serve it; a run that
 * asks a different question than the journal answers is an `isError` result (and a warning for the operator); a
 * spilled entry the store has lost refuses the state like any invalid one.
 */
import {
  MissingRequiredClientCapabilityError,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

import {
  askForInput,
  DEFAULT_MAX_ROUNDS,
  openRound,
  type RoundOptions,
  type RoundTarget,
} from '../flows/inputRounds.js';
import { RequestStateRejectedError } from '../flows/roundErrors.js';
import type { ToolContext } from '../flows/tool.js';
import { createUsageMeter, DEFAULT_MODEL_BUDGET, type ModelCallRecord } from '../models/usage.js';
import { JournalLostError, ReplayMismatchError, restoreJournal, spillJournal, type KitState } from './journal.js';
import type { ModelKit } from './kit.js';
import type { ModelTool } from './modelTool.js';
import { AskRound, createReplay, NoSourceError, sourcesFor } from './replay.js';

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** What one call may set apart from its kit. */
export interface ModelToolCallOptions {
  /** The MRTR round cap of this call (a tool whose bounds are tighter than the kit's, like explore mode's rounds). */
  maxRounds?: number;
}

function roundOptions(kit: ModelKit, call: ModelToolCallOptions): RoundOptions {
  const maxRounds = call.maxRounds ?? kit.maxRounds;
  return {
    codec: kit.codec,
    logger: kit.logger,
    requireState: true,
    store: kit.store,
    ...(maxRounds !== undefined && { maxRounds }),
    ...(kit.events !== undefined && { events: kit.events }),
  };
}

async function openKitRound(
  tool: ModelTool,
  kit: ModelKit,
  target: RoundTarget,
  ctx: ToolContext,
  call: ModelToolCallOptions,
) {
  const opened = await openRound<KitState>(ctx, target, roundOptions(kit, call), () => ({ j: [] }));
  try {
    return { ...opened, state: await restoreJournal(opened.state, kit.store) };
  } catch (error) {
    if (!(error instanceof JournalLostError)) throw error;
    kit.events?.stateRejected?.('replayed');
    kit.logger.warn(
      `${tool.name}: request state rejected (${error.message}) for principal ${ctx.principal}`,
      'state_rejected',
    );
    throw new RequestStateRejectedError();
  }
}

export async function runModelTool(
  tool: ModelTool,
  kit: ModelKit,
  args: unknown,
  ctx: ToolContext,
  call: ModelToolCallOptions = {},
): Promise<CallToolResult | InputRequiredResult> {
  const target: RoundTarget = { method: 'tools/call', name: tool.name, args };
  const opened = await openKitRound(tool, kit, target, ctx, call);
  const pending = opened.state.p;
  const meter = createUsageMeter({
    budget: kit.models.budget ?? DEFAULT_MODEL_BUDGET,
    logger: kit.logger,
    onCall: (call: ModelCallRecord) => {
      kit.events?.serverModelCall?.(call);
      if (call.tokens > 0) ctx.chargeModelTokens?.(call.tokens);
    },
    ...(opened.state.u !== undefined && { start: opened.state.u }),
  });
  const replay = createReplay({
    tool,
    kit,
    ctx,
    state: opened.state,
    answer: pending === undefined ? undefined : opened.responses[pending.w],
    meter,
  });
  const askHost = (asked: AskRound) =>
    askRound(kit, call, target, ctx, opened.round, replay.journal(), replay.notes(), meter.totals(), asked);
  let returned: CallToolResult | string;
  try {
    returned = await tool.run(args as never, replay.context);
  } catch (error) {
    if (error instanceof AskRound) return askHost(error);
    const asked = replay.asked();
    if (asked !== undefined) return askHost(asked);
    return failure(tool, kit, ctx, error);
  }
  // A run that swallowed the round's signal still asks the host.
  const asked = replay.asked();
  if (asked !== undefined) return askHost(asked);
  return finish(tool, returned, replay.notes());
}

async function askRound(
  kit: ModelKit,
  call: ModelToolCallOptions,
  target: RoundTarget,
  ctx: ToolContext,
  round: number,
  journal: KitState['j'],
  notes: string[],
  usage: KitState['u'],
  asked: AskRound,
): Promise<CallToolResult | InputRequiredResult> {
  const state: KitState = {
    j: journal,
    p: asked.pending,
    ...(notes.length > 0 && { n: notes }),
    ...(usage !== undefined && usage.calls > 0 && { u: usage }),
  };
  // Spilled entries must outlive every round the call may still take (each round lasts at most the state's TTL).
  const rounds = (call.maxRounds ?? kit.maxRounds ?? DEFAULT_MAX_ROUNDS) + 1;
  const expiresAtMs = Date.now() + kit.codec.ttlSeconds * 1000 * rounds;
  const sealed = await spillJournal(state, kit.inlineJournalBytes, kit.store, expiresAtMs);
  const outcome = askForInput(ctx, target, roundOptions(kit, call), sealed, round, {
    [asked.pending.w]: asked.request,
  });
  return outcome.kind === 'asked' ? outcome.result : toolError(outcome.message);
}

function failure(tool: ModelTool, kit: ModelKit, ctx: ToolContext, error: unknown): CallToolResult {
  if (error instanceof ReplayMismatchError) {
    kit.logger.warn(`${tool.name}: ${error.message}`, 'replay_mismatch');
    return toolError(
      `${tool.name} stopped: on this round it asked a different question ('${error.key}') than the one already ` +
        'answered. Call the tool again from the start.',
    );
  }
  if (!(error instanceof NoSourceError)) throw error;
  const legacy = ctx.maxSamples !== undefined || ctx.hostUnavailable !== undefined;
  const why = error.passed.map((reason) => `${reason.source}: ${reason.why}`).join('; ');
  if (error.hostNeeds !== undefined && !legacy && error.providerFailure === undefined) {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: error.hostNeeds as ClientCapabilities },
      `${tool.name} needs model input for step '${error.step}' from the client's own model (${why}): use a client ` +
        `that declares ${Object.keys(error.hostNeeds).join(', ')}${serveHint(tool, error.step)}.`,
    );
  }
  if (error.providerFailure !== undefined) {
    return toolError(
      `${tool.name}: no model could answer step '${error.step}' (${why}). What to do: ${error.providerFailure.hint}.`,
    );
  }
  return toolError(
    `${tool.name}: no model can answer step '${error.step}' (${why || 'the model plan names no source for it'})${serveHint(tool, error.step)}.`,
  );
}

/** What would serve a step: the model grammar that names a source for it. */
function serveHint(tool: ModelTool, step: string): string {
  const builtin = tool.builtin?.[step] !== undefined ? 'builtin' : 'openai:MODEL';
  return `; the server operator can serve it with --model ${tool.name}.${step}=host,${builtin}`;
}

function finish(tool: ModelTool, returned: CallToolResult | string, notes: readonly string[]): CallToolResult {
  const result: CallToolResult =
    typeof returned === 'string' ? { content: [{ type: 'text', text: returned }] } : returned;
  if (tool.output !== undefined && result.isError !== true) {
    const parsed = tool.output.safeParse(result.structuredContent);
    if (!parsed.success) throw new Error(`${tool.name}: structuredContent does not match the tool's output schema`);
  }
  if (notes.length === 0) return result;
  return {
    ...result,
    content: [...result.content, ...notes.map((note) => ({ type: 'text' as const, text: `Note: ${note}` }))],
  };
}

export { sourcesFor };
