/**
 * The context one run of a model tool gets, replaying its journal: each `ctx.sample`, `ctx.elicit` and `ctx.once`
 * takes the next place in the journal. A place that holds an answer gives it back (after checking that it answers
 * this very question); the place after the last answer is a new question — answered inline by a server-side source,
 * or, when the host must answer, the end of this run: the question becomes the round's input request
 * (`asked()`), and the next round runs `run` again from the top.
 */
import {
  inputRequired,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequest,
} from '@modelcontextprotocol/server';

import { readElicitResult, readSamplingResult } from '../flows/inputResponses.js';
import type { ToolContext } from '../flows/tool.js';
import { UnusableAnswerError } from '../flows/unusableAnswerError.js';
import type { ModelSource } from '../models/sources.js';
import type { UsageMeter } from '../models/usage.js';
import { loadOnce } from '../loadOnce.js';
import type * as RequestRedaction from '../repo/secrets/requestRedaction.js';
import { checkAnswer, wireRequest } from './answers.js';
import {
  questionDigest,
  ReplayMismatchError,
  type EntryKind,
  type JournalEntry,
  type KitState,
  type PendingQuestion,
} from './journal.js';
import type { ModelKit } from './kit.js';
import type { ModelTool, ModelToolContext, SampleAnswer, SampleRequest } from './modelTool.js';
import { routeQuestion, type Passed } from './routes.js';
import { createToolRepo, type ToolRepo } from './toolRepo.js';

type RedactorModule = typeof RequestRedaction;

/** Thrown through `run` when the host must answer: not an `Error`, so that `catch (e: Error)` code passes it on. */
export class AskRound {
  constructor(
    readonly pending: PendingQuestion,
    readonly request: InputRequest,
  ) {}
}

/** No source of the plan can answer a question (or, legacy, an elicitation the client cannot take). */
export class NoSourceError extends Error {
  override name = 'NoSourceError';
  constructor(
    readonly step: string,
    readonly passed: readonly Passed[],
    /** What the host would need to answer it (the plan names the host). */
    readonly hostNeeds: Record<string, unknown> | undefined,
    readonly providerFailure: { message: string; hint: string } | undefined,
  ) {
    super(`no source answered '${step}'`);
  }
}

export interface ReplayInput {
  tool: ModelTool;
  kit: ModelKit;
  ctx: ToolContext;
  state: KitState;
  /** The retry's answer to the pending question, if it carried one. */
  answer: unknown;
  meter: UsageMeter;
}

/**
 * The journal as the project's own flows use it (kit/flowOnKit.ts), under {@link FLOW_BRIDGE} on the context. A flow
 * is a state machine: its state says where it is, so it does not replay from the top. Its journal is one checkpoint
 * — the flow's state when it asked the host, sealed with the pending question — and each round resumes from it with
 * the retry's answer, as the flow engine does with its own sealed state. The question goes out as the flow prepared
 * it (a flow redacts every request it prepares with the same redactor: flows/summarizeRepo/redaction.ts), under its
 * step's key every time it is asked. Not part of the public API.
 */
export interface FlowBridge {
  readonly kit: ModelKit;
  readonly toolContext: ToolContext;
  readonly meter: UsageMeter;
  /** The checkpoint this round resumes from (none on a first call), and the retry's answers. */
  resume<T>(): { checkpoint: T | undefined; responses: Record<string, unknown> };
  /** Ends the run with a question for the host, `checkpoint` becoming the journal the next round resumes from. */
  askHost(key: string, params: CreateMessageRequestParams, checkpoint: unknown): never;
}

/** The key of a flow's checkpoint in the journal. */
const CHECKPOINT_KEY = 'flow';

/** The context property under which the project's flows find their bridge. */
export const FLOW_BRIDGE: unique symbol = Symbol('mcp-model-input.flowBridge');

export interface Replay {
  context: ModelToolContext & { readonly [FLOW_BRIDGE]: FlowBridge };
  /** The round to ask, once the run reached a question only the host can answer. */
  asked(): AskRound | undefined;
  journal(): JournalEntry[];
  notes(): string[];
}

/** The plan's sources for one step of one tool. */
export function sourcesFor(kit: ModelKit, tool: string, step: string): readonly ModelSource[] {
  if (kit.models.preferences !== undefined) return kit.models.preferences(tool, step);
  const withHost = kit.models.sourceFor(step, { sampling: { tools: {} } });
  const without = kit.models.sourceFor(step, {});
  return [withHost, without].filter(
    (source, index, all): source is ModelSource => source !== undefined && all.indexOf(source) === index,
  );
}

/** A 2025-11-25 call: the host's model is asked live, not over a round. */
export const isLegacy = (ctx: ToolContext): boolean =>
  ctx.maxSamples !== undefined || ctx.hostUnavailable !== undefined;

export function createReplay(input: ReplayInput): Replay {
  const { tool, kit, ctx, meter } = input;
  const journal = [...input.state.j];
  const notes = [...(input.state.n ?? [])];
  let pending = input.state.p;
  let cursor = 0;
  let asked: AskRound | undefined;
  let repo: ToolRepo | undefined;

  /** The next place: its recorded entry (checked), the pending question (checked), or a new question. */
  function place(kind: EntryKind, key: string, digest: string): { entry?: JournalEntry; pending?: true } {
    if (asked !== undefined) throw asked; // the run goes on after a question only the host can answer: stop it again
    const position = cursor++;
    const entry = journal[position];
    if (entry !== undefined) {
      if (entry.t !== kind || entry.k !== key || entry.d !== digest) throw new ReplayMismatchError(position, key);
      return { entry };
    }
    if (pending !== undefined) {
      if (pending.t !== kind || pending.k !== key || pending.d !== digest) throw new ReplayMismatchError(position, key);
      return { pending: true };
    }
    return {};
  }

  function wireKey(kind: EntryKind, key: string): string {
    const before = journal.filter((entry) => entry.t === kind && entry.k === key).length;
    return before === 0 ? key : `${key}_${before + 1}`;
  }

  function ask(question: PendingQuestion, request: InputRequest): never {
    asked = new AskRound(question, request);
    throw asked;
  }

  function record(entry: JournalEntry): void {
    journal.push(entry);
    pending = undefined;
  }

  function note(step: string, source: string, passed: readonly Passed[]): void {
    const notable = passed.filter((reason) => reason.notable);
    if (notable.length === 0) return;
    const why = notable.map((reason) => `${reason.source}: ${reason.why}`).join('; ');
    notes.push(
      `'${step}' was answered by ${source === 'builtin' ? 'the built-in model' : `the server's own model (${source})`} (${why}).`,
    );
  }

  async function sample(step: string, request: SampleRequest): Promise<SampleAnswer> {
    const spec = tool.steps[step];
    if (spec === undefined) throw new TypeError(`${tool.name}: ctx.sample('${step}'): no such step`);
    const preferences =
      request.modelPreferences === undefined && spec.modelPreferences !== undefined && spec.modelPreferences !== 'omit'
        ? { modelPreferences: spec.modelPreferences }
        : {};
    const withDefaults: SampleRequest = { ...request, ...preferences };
    const wire = wireRequest(withDefaults);
    const digest = questionDigest('s', step, wire);
    const at = place('s', step, digest);
    if (at.entry !== undefined) return at.entry.v as SampleAnswer;
    const sources = sourcesFor(kit, tool.name, step);
    // The redactor loads at the first question (a server answers discovery and tools/list without it), and runs
    // only where the question is sent: not for the answer a retry brings, unless a server-side model takes over.
    const routeInput = async () => ({
      tool,
      step,
      request: withDefaults,
      params: (await redactQuestion(wire)).params,
      capabilities: ctx.clientCapabilities,
      ...(ctx.hostUnavailable !== undefined && { hostUnavailable: ctx.hostUnavailable }),
      meter,
      signal: ctx.signal,
    });
    if (at.pending === true && input.answer !== undefined) {
      const key = pending!.w;
      const result = readSamplingResult(key, input.answer);
      kit.events?.hostModelAnswer?.(key);
      const route = isLegacy(ctx) ? 'live' : 'host';
      const checked = checkAnswer(result, route, request.outputSchema);
      if (checked.ok) {
        record({ t: 's', k: step, d: digest, v: checked.answer });
        kit.events?.routed?.({ tool: tool.name, step, route, source: 'host', passed: [] });
        return checked.answer;
      }
      // The client's answer is its input: never repaired; a server-side source after the host answers instead.
      const after = sources.slice(sources.findIndex((source) => source.kind === 'host') + 1);
      const passed: Passed[] = [
        { source: 'host', why: `the client's model gave an unusable answer: ${checked.reason}`, notable: true },
      ];
      const outcome = await routeQuestion(
        { ...(await routeInput()), sources: after.filter((s) => s.kind !== 'host') },
        passed,
      );
      if (outcome.kind !== 'answered') throw new UnusableAnswerError(key, checked.reason);
      return answered(step, digest, outcome.answer, outcome.source, outcome.passed);
    }
    const routed = await routeInput();
    if (at.pending === true) {
      // Asked before, not answered by this retry: asked again (the spec), counted against the round cap.
      return ask(pending!, inputRequired.createMessage(routed.params));
    }
    const outcome = await routeQuestion({ ...routed, sources });
    if (outcome.kind === 'answered') return answered(step, digest, outcome.answer, outcome.source, outcome.passed);
    if (outcome.kind === 'ask') {
      return ask({ t: 's', k: step, d: digest, w: wireKey('s', step) }, inputRequired.createMessage(routed.params));
    }
    kit.events?.routed?.({ tool: tool.name, step, passed: outcome.passed.map(describe) });
    throw new NoSourceError(
      step,
      outcome.passed,
      outcome.hostNeeds,
      outcome.failure === undefined ? undefined : { message: outcome.failure.message, hint: outcome.failure.hint },
    );
  }

  function answered(
    step: string,
    digest: string,
    answer: SampleAnswer,
    source: string,
    passed: readonly Passed[],
  ): SampleAnswer {
    record({ t: 's', k: step, d: digest, v: answer });
    note(step, source, passed);
    kit.events?.routed?.({ tool: tool.name, step, route: answer.route, source, passed: passed.map(describe) });
    return answer;
  }

  async function elicit(key: string, params: ElicitRequestFormParams): Promise<ElicitResult> {
    const digest = questionDigest('e', key, params);
    const at = place('e', key, digest);
    if (at.entry !== undefined) return at.entry.v as ElicitResult;
    if (at.pending === true && input.answer !== undefined) {
      const result = readElicitResult(pending!.w, input.answer);
      record({ t: 'e', k: key, d: digest, v: result });
      return result;
    }
    const request = inputRequired.elicit(params);
    if (isLegacy(ctx) && !hasElicitation(ctx.clientCapabilities)) {
      throw new NoSourceError(
        key,
        [{ source: 'client', why: 'the client did not declare elicitation at initialize', notable: true }],
        undefined,
        undefined,
      );
    }
    // Without the capability on 2026-07-28, asking is -32021 (the round machinery checks every request).
    return ask(at.pending === true ? pending! : { t: 'e', k: key, d: digest, w: wireKey('e', key) }, request);
  }

  async function once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const digest = questionDigest('o', key, null);
    const at = place('o', key, digest);
    if (at.entry !== undefined) return at.entry.v as T;
    if (at.pending === true) throw new ReplayMismatchError(cursor - 1, key);
    const value = await fn();
    const kept = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
    record({ t: 'o', k: key, d: digest, ...(kept !== undefined && { v: kept }) });
    return kept as T;
  }

  function resume<T>(): { checkpoint: T | undefined; responses: Record<string, unknown> } {
    const [entry] = journal;
    const checkpoint = entry?.t === 'o' && entry.k === CHECKPOINT_KEY ? (entry.v as T) : undefined;
    const answered = pending !== undefined && input.answer !== undefined;
    return { checkpoint, responses: answered ? { [pending!.w]: input.answer } : {} };
  }

  function askHost(key: string, params: CreateMessageRequestParams, checkpoint: unknown): never {
    journal.length = 0;
    journal.push({ t: 'o', k: CHECKPOINT_KEY, d: questionDigest('o', CHECKPOINT_KEY, null), v: checkpoint });
    // No digest: a flow resumes from its checkpoint and never asks an answered question again.
    return ask({ t: 's', k: key, w: key }, inputRequired.createMessage(params));
  }

  const bridge: FlowBridge = { kit, toolContext: ctx, meter, resume, askHost };
  const context: ModelToolContext & { readonly [FLOW_BRIDGE]: FlowBridge } = {
    [FLOW_BRIDGE]: bridge,
    sample,
    elicit,
    once,
    get repo() {
      if (kit.root === undefined) return undefined;
      return (repo ??= createToolRepo(kit.root, { ...kit.repository, signal: ctx.signal }));
    },
    signal: ctx.signal,
    progress: (progress, total, message) => ctx.progress(progress, total, message),
    log: (level, data) => ctx.log(level, data),
  };
  return { context, asked: () => asked, journal: () => journal, notes: () => notes };
}

/** The redactor's module, imported at the first question and kept. */
const loadRedactor = loadOnce((): Promise<RedactorModule> => import('../repo/secrets/requestRedaction.js'));

async function redactQuestion(wire: CreateMessageRequestParams) {
  const { redactRequest } = await loadRedactor();
  return redactRequest(wire);
}

const describe = (reason: Passed): string => `${reason.source}: ${reason.why}`;

function hasElicitation(capabilities: ClientCapabilities): boolean {
  return typeof capabilities.elicitation === 'object' && capabilities.elicitation !== null;
}
