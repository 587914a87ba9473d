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
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequest,
} from '@modelcontextprotocol/server';

import { readElicitResult, readSamplingResult } from '../flows/inputResponses.js';
import type { ToolContext } from '../flows/tool.js';
import { UnusableAnswerError } from '../flows/unusableAnswerError.js';
import type { ModelSource } from '../models/sources.js';
import type { UsageMeter } from '../models/usage.js';
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

export interface Replay {
  context: ModelToolContext;
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

const isLegacy = (ctx: ToolContext): boolean => ctx.maxSamples !== undefined || ctx.hostUnavailable !== undefined;

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
    // The redactor loads at the first question: a server answers discovery and tools/list without it.
    const { redactRequest } = await import('../repo/secrets/requestRedaction.js');
    const { params } = await redactRequest(wire);
    const sources = sourcesFor(kit, tool.name, step);
    const routeInput = {
      tool,
      step,
      request: withDefaults,
      params,
      capabilities: ctx.clientCapabilities,
      ...(ctx.hostUnavailable !== undefined && { hostUnavailable: ctx.hostUnavailable }),
      meter,
      signal: ctx.signal,
    };
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
      const outcome = await routeQuestion({ ...routeInput, sources: after.filter((s) => s.kind !== 'host') }, passed);
      if (outcome.kind !== 'answered') throw new UnusableAnswerError(key, checked.reason);
      return answered(step, digest, outcome.answer, outcome.source, outcome.passed);
    }
    if (at.pending === true) {
      // Asked before, not answered by this retry: asked again (the spec), counted against the round cap.
      return ask(pending!, inputRequired.createMessage(params));
    }
    const outcome = await routeQuestion({ ...routeInput, sources });
    if (outcome.kind === 'answered') return answered(step, digest, outcome.answer, outcome.source, outcome.passed);
    if (outcome.kind === 'ask') {
      return ask({ t: 's', k: step, d: digest, w: wireKey('s', step) }, inputRequired.createMessage(params));
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

  const context: ModelToolContext = {
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

const describe = (reason: Passed): string => `${reason.source}: ${reason.why}`;

function hasElicitation(capabilities: ClientCapabilities): boolean {
  return typeof capabilities.elicitation === 'object' && capabilities.elicitation !== null;
}
