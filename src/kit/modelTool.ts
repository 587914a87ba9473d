/**
 * A model tool, as its author writes it: a name, a zod input, the names of its model questions (steps), an
 * optional deterministic model per step, and `run(args, ctx)` — plain async code that asks the model with
 * `await ctx.sample(step, request)`. Where a question goes (a server-owned provider, the host's model over an
 * MRTR round or live sampling, the built-in model) is the model plan's business, never the tool's.
 *
 * A tool is recognised by its shape and a versioned marker (`isModelTool`), never by `instanceof`: the module
 * that defines it may load its own copy of this package.
 */
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
  ModelPreferences,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';

import type { ToolRepo } from './toolRepo.js';

/** The marker's property and value: a tool made by another copy of this package is still recognised. */
export const MODEL_TOOL_MARKER = '~mcpModelInput' as const;
export const MODEL_TOOL_VERSION = 'model-tool@1' as const;

/** Which source answered a question. */
export type SampleRoute = 'provider' | 'host' | 'live' | 'builtin';

/** One model question: the SDK's `sampling/createMessage` params, plus an optional schema its answer must meet. */
export type SampleRequest = CreateMessageRequestParams & {
  /**
   * The answer's text must be JSON that this schema accepts (a fenced block is unwrapped). A server-side model
   * whose answer does not gets one repair request; the parsed value is the answer's `data`.
   */
  outputSchema?: z.ZodType;
};

/** The SDK's `CreateMessageResult`, plus its text, the route it took, and (with `outputSchema`) its parsed data. */
export type SampleAnswer = CreateMessageResult & {
  text: string;
  route: SampleRoute;
  data?: unknown;
};

/** What a built-in (deterministic) model of a step may use. */
export interface BuiltinContext {
  step: string;
  /** The text of the request's messages (text blocks, joined with blank lines), as redacted for any model. */
  prompt: string;
  signal: AbortSignal;
}

export type BuiltinAnswer = Pick<CreateMessageResult, 'content'> &
  Partial<Pick<CreateMessageResult, 'model' | 'stopReason'>>;

export type BuiltinModel = (request: SampleRequest, ctx: BuiltinContext) => BuiltinAnswer | Promise<BuiltinAnswer>;

export interface ModelStepSpec {
  description?: string;
  /** Sent with each request of the step unless the request has its own; `'omit'` sends none. */
  modelPreferences?: ModelPreferences | 'omit';
}

/** What `run` gets besides its arguments. */
export interface ModelToolContext {
  /** One model question; on MRTR the first unanswered one ends the run with an `input_required` round. */
  sample(step: string, request: SampleRequest): Promise<SampleAnswer>;
  /** Work that must not be repeated each round (its JSON-serialisable result is journaled). */
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T>;
  /** A form elicitation, through the same rounds (only where the client declared `elicitation`). */
  elicit(key: string, params: ElicitRequestFormParams): Promise<ElicitResult>;
  /** The confined, ignore-aware, secret-refusing reader of the served root (undefined without one). */
  readonly repo: ToolRepo | undefined;
  readonly signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  log(level: LoggingLevel, data: unknown): Promise<void>;
}

export interface ModelToolDefinition<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title?: string;
  description: string;
  input: I;
  /** When set, every successful result's `structuredContent` is validated against it. */
  output?: z.ZodType;
  annotations?: ToolAnnotations;
  steps: Record<string, ModelStepSpec>;
  builtin?: Record<string, BuiltinModel>;
  /** Whether a call may run as a task (the tasks extension, docs/tasks.md): default 'optional'. */
  task?: 'never' | 'optional' | 'always';
  run(args: z.output<I>, ctx: ModelToolContext): Promise<CallToolResult | string>;
}

export type ModelTool<I extends z.ZodObject = z.ZodObject> = Readonly<ModelToolDefinition<I>> & {
  readonly [MODEL_TOOL_MARKER]: typeof MODEL_TOOL_VERSION;
};

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function defineModelTool<I extends z.ZodObject>(definition: ModelToolDefinition<I>): ModelTool<I> {
  if (!NAME_PATTERN.test(definition.name)) {
    throw new TypeError(`defineModelTool: bad tool name '${definition.name}' (letters, digits, _ and -)`);
  }
  for (const step of Object.keys(definition.steps)) {
    if (!NAME_PATTERN.test(step)) throw new TypeError(`defineModelTool: bad step name '${step}' in ${definition.name}`);
  }
  for (const step of Object.keys(definition.builtin ?? {})) {
    if (!(step in definition.steps)) {
      throw new TypeError(`defineModelTool: ${definition.name} has a built-in model for '${step}', which is no step`);
    }
  }
  return Object.freeze({ ...definition, [MODEL_TOOL_MARKER]: MODEL_TOOL_VERSION });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A model tool of this major version, by shape and marker (never `instanceof`: another copy's tools count). */
export function isModelTool(value: unknown): value is ModelTool {
  if (!isObject(value) || value[MODEL_TOOL_MARKER] !== MODEL_TOOL_VERSION) return false;
  const input = value.input as { safeParse?: unknown; shape?: unknown } | undefined;
  return (
    typeof value.name === 'string' &&
    NAME_PATTERN.test(value.name) &&
    typeof value.description === 'string' &&
    typeof value.run === 'function' &&
    isObject(value.steps) &&
    isObject(input) &&
    typeof input.safeParse === 'function' &&
    isObject(input.shape)
  );
}
