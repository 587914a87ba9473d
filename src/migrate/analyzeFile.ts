/**
 * One file's sampling call sites, grouped by the tool handler that holds them, each with its step name, the loop
 * around it, and the verdict: rewritable (with the replay-safety wraps), flagged, or unsupported, and why.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

import { isLoop, localNames, planReplaySafety, type ReplayPlan } from './replaySafety.js';
import { findSamplingCalls, type SamplingCall } from './samplingCalls.js';
import { snakeCase, uniqueName, type TextEdit } from './textEdits.js';
import { isFunction, registrationOf, type Handler, type ToolRegistration } from './toolRegistrations.js';
import type { CallSiteStatus, SourceLocation } from './types.js';

export interface LoopShape {
  kind: 'for' | 'for-of' | 'for-in' | 'while' | 'do';
  line: number;
  /** Iterations, when the loop's condition compares with a number literal (`i < 5`). */
  bound?: number;
}

export interface SiteAnalysis {
  sampling: SamplingCall;
  location: SourceLocation;
  step?: string;
  /** The innermost loop around the call inside its handler. */
  loop?: LoopShape;
  status: CallSiteStatus;
  reason: string;
}

export interface HandlerAnalysis {
  registration: ToolRegistration;
  sites: SiteAnalysis[];
  /** The name the kit context has inside `run` (the handler's own context parameter, or a new one). */
  context: string;
  /** Edits inside the handler: parameters, context uses, sampling calls, ctx.once wraps. */
  edits: TextEdit[];
  replay: ReplayPlan;
  rewritable: boolean;
}

export interface FileAnalysis {
  path: string;
  file: SourceFile;
  handlers: HandlerAnalysis[];
  /** Sampling calls outside any handler this codemod can read. */
  loose: SiteAnalysis[];
}

/** Tool and step names defineModelTool accepts. */
const KIT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const GENERIC_NAMES = new Set([
  'response',
  'result',
  'res',
  'r',
  'reply',
  'answer',
  'completion',
  'message',
  'msg',
  'out',
  'output',
  'sample',
  'sampling',
  'data',
  'resp',
  'raw',
  'step',
  'turn',
]);

function locationOf(path: string, node: Node): SourceLocation {
  const { line, column } = node.getSourceFile().getLineAndColumnAtPos(node.getStart());
  return { file: path, line, column };
}

/** The variable a call's awaited result is bound to (`const summary = await ...`). */
function boundName(sampling: SamplingCall): string | undefined {
  const awaited = sampling.call.getParent();
  if (awaited === undefined || !Node.isAwaitExpression(awaited)) return undefined;
  const holder = awaited.getParent();
  if (holder !== undefined && Node.isVariableDeclaration(holder) && Node.isIdentifier(holder.getNameNode())) {
    return holder.getName();
  }
  if (holder !== undefined && Node.isBinaryExpression(holder) && Node.isIdentifier(holder.getLeft())) {
    return holder.getLeft().getText();
  }
  return undefined;
}

function loopBound(loop: Node): number | undefined {
  const condition = Node.isForStatement(loop)
    ? loop.getCondition()
    : Node.isWhileStatement(loop) || Node.isDoStatement(loop)
      ? loop.getExpression()
      : undefined;
  if (condition === undefined) return undefined;
  for (const compare of [condition, ...condition.getDescendantsOfKind(SyntaxKind.BinaryExpression)]) {
    if (!Node.isBinaryExpression(compare)) continue;
    const right = compare.getRight();
    if (!Node.isNumericLiteral(right)) continue;
    const value = Number(right.getLiteralValue());
    const operator = compare.getOperatorToken().getKind();
    if (operator === SyntaxKind.LessThanToken) return value;
    if (operator === SyntaxKind.LessThanEqualsToken) return value + 1;
  }
  return undefined;
}

function loopOf(call: Node, handler: Handler): LoopShape | undefined {
  for (const ancestor of call.getAncestors()) {
    if (ancestor === handler) return undefined;
    if (!isLoop(ancestor)) continue;
    const kind = Node.isForStatement(ancestor)
      ? 'for'
      : Node.isForOfStatement(ancestor)
        ? 'for-of'
        : Node.isForInStatement(ancestor)
          ? 'for-in'
          : Node.isWhileStatement(ancestor)
            ? 'while'
            : 'do';
    const bound = loopBound(ancestor);
    return { kind, line: ancestor.getStartLineNumber(), ...(bound !== undefined && { bound }) };
  }
  return undefined;
}

/** The handler function around a call: the nearest function, and whether a registration holds it. */
function handlerOf(call: Node): { fn?: Handler; registration?: ToolRegistration; nested?: Handler } {
  const functions = call
    .getAncestors()
    .filter((node) => isFunction(node) || Node.isFunctionDeclaration(node) || Node.isMethodDeclaration(node));
  for (const [index, fn] of functions.entries()) {
    if (!isFunction(fn)) continue;
    const registration = registrationOf(fn);
    if (registration !== undefined) {
      const inner = functions[0];
      return { fn, registration, ...(index > 0 && inner !== undefined && isFunction(inner) && { nested: inner }) };
    }
  }
  return {};
}

/** Why a sampling call cannot be rewritten on its own, whatever its handler. */
function ownProblem(sampling: SamplingCall): string | undefined {
  if (sampling.kind === 'inputRequired') {
    return 'a hand-built MRTR state machine (inputRequired with createMessage): it already answers 2026-07-28 clients; not rewritten';
  }
  if (sampling.problem !== undefined) return sampling.problem;
  if (!Node.isAwaitExpression(sampling.call.getParent())) {
    return 'the call is not awaited where it is made (ctx.sample must be awaited in order)';
  }
  return undefined;
}

interface ContextUse {
  edits: TextEdit[];
  problem?: string;
}

/** The handler's context parameter: which uses map onto the kit context, and which do not. */
function contextUses(handler: Handler, context: string, calls: readonly SamplingCall[]): ContextUse {
  const edits: TextEdit[] = [];
  const inCall = (node: Node): boolean =>
    calls.some(({ call }) => call.getExpression() === node || call.getExpression() === node.getParent());
  for (const identifier of handler.getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (identifier.getText() !== context) continue;
    const parent = identifier.getParent();
    if (Node.isParameterDeclaration(parent)) continue;
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === identifier) continue;
    if (Node.isPropertyAssignment(parent) && parent.getNameNode() === identifier) continue;
    if (!Node.isPropertyAccessExpression(parent)) {
      return {
        edits,
        problem: `the handler passes its context \`${context}\` on (line ${identifier.getStartLineNumber()}), which a kit tool cannot`,
      };
    }
    if (inCall(parent)) continue;
    const member = parent.getName();
    if (member === 'signal') continue;
    const outer = parent.getParent();
    if (member === 'mcpReq' && Node.isPropertyAccessExpression(outer) && outer.getName() === 'signal') {
      edits.push({ start: outer.getStart(), end: outer.getEnd(), text: `${context}.signal` });
      continue;
    }
    const logCall = Node.isPropertyAccessExpression(outer) ? outer.getParent() : undefined;
    if (
      member === 'mcpReq' &&
      Node.isPropertyAccessExpression(outer) &&
      outer.getName() === 'log' &&
      Node.isCallExpression(logCall) &&
      logCall.getExpression() === outer &&
      logCall.getArguments().length === 2
    ) {
      edits.push({ start: outer.getStart(), end: outer.getEnd(), text: `${context}.log` });
      continue;
    }
    const used =
      Node.isPropertyAccessExpression(outer) && outer.getExpression() === parent ? outer.getText() : parent.getText();
    return {
      edits,
      problem: `the handler uses \`${used}\` (line ${identifier.getStartLineNumber()}), which a kit tool's context does not have`,
    };
  }
  return { edits };
}

/** The context parameter's name, and the edits that give `run` its `(args, ctx)` parameters. */
function runParameters(
  handler: Handler,
  registration: ToolRegistration,
): { context: string; edits: TextEdit[]; problem?: string } {
  const parameters = handler.getParameters();
  // Without an input schema the SDK passes the context first; the kit always passes (args, ctx).
  const contextIndex = registration.input === undefined ? 0 : 1;
  const existing = parameters[contextIndex];
  if (existing !== undefined) {
    if (!Node.isIdentifier(existing.getNameNode())) {
      return { context: 'ctx', edits: [], problem: 'the handler destructures its context parameter' };
    }
    const edits: TextEdit[] = [];
    if (existing.getTypeNode() !== undefined) {
      edits.push({ start: existing.getNameNode().getEnd(), end: existing.getEnd(), text: '' });
    }
    if (contextIndex === 0) edits.push({ start: existing.getStart(), end: existing.getStart(), text: '_args, ' });
    return { context: existing.getName(), edits };
  }
  const taken = localNames(handler);
  const context = taken.has('ctx') ? uniqueName('modelCtx', taken, '') : 'ctx';
  const open = handler.getFirstChildByKind(SyntaxKind.OpenParenToken);
  const first = parameters[0];
  if (first !== undefined) {
    if (open === undefined)
      return {
        context,
        edits: [{ start: first.getStart(), end: first.getEnd(), text: `(${first.getText()}, ${context})` }],
      };
    return { context, edits: [{ start: first.getEnd(), end: first.getEnd(), text: `, ${context}` }] };
  }
  if (open === undefined)
    return { context, edits: [], problem: 'the handler has no parameter list the codemod can read' };
  return { context, edits: [{ start: open.getEnd(), end: open.getEnd(), text: `_args, ${context}` }] };
}

/** `ctx.sample('step', ` in place of everything before the params, `)` after them: edits inside the params stay valid. */
function sampleCallEdits(sampling: SamplingCall, step: string, context: string): TextEdit[] {
  const { call, params } = sampling;
  if (params === undefined) return [];
  return [
    { start: call.getStart(), end: params.getStart(), text: `${context}.sample('${step}', ` },
    { start: params.getEnd(), end: call.getEnd(), text: ')' },
  ];
}

function stepNames(registration: ToolRegistration, calls: readonly SamplingCall[]): string[] {
  const taken = new Set<string>();
  const fallback = registration.name !== undefined && KIT_NAME.test(registration.name) ? registration.name : 'sample';
  return calls.map((sampling) => {
    const bound = boundName(sampling);
    const base = bound !== undefined && !GENERIC_NAMES.has(bound.toLowerCase()) ? snakeCase(bound) : fallback;
    return uniqueName(base || fallback, taken);
  });
}

function analyzeHandler(
  path: string,
  handler: Handler,
  registration: ToolRegistration,
  calls: SamplingCall[],
): HandlerAnalysis {
  const steps = stepNames(registration, calls);
  const parameters = runParameters(handler, registration);
  const uses = parameters.problem === undefined ? contextUses(handler, parameters.context, calls) : { edits: [] };
  const replay = planReplaySafety(handler, calls, parameters.context);
  const sites: SiteAnalysis[] = calls.map((sampling, index) => {
    const loop = loopOf(sampling.call, handler);
    return {
      sampling,
      location: locationOf(path, sampling.call),
      ...(registration.name !== undefined && {}),
      step: steps[index] as string,
      ...(loop !== undefined && { loop }),
      status: 'migrated',
      reason: '',
    };
  });
  const own = sites.map((site) => ownProblem(site.sampling));
  const firstOwn = own.findIndex((problem) => problem !== undefined);
  const handlerProblem = registration.problem ?? parameters.problem ?? uses.problem;
  for (const [index, site] of sites.entries()) {
    if (own[index] !== undefined) {
      site.status = 'unsupported';
      site.reason = own[index] as string;
    } else if (handlerProblem !== undefined) {
      site.status = 'unsupported';
      site.reason = handlerProblem;
    } else if (firstOwn >= 0) {
      site.status = 'unsupported';
      site.reason = `another sampling call in this handler is not rewritten (line ${sites[firstOwn]?.location.line})`;
    } else if (replay.problem !== undefined) {
      site.status = 'flagged';
      site.reason = `replay-unsafe: ${replay.problem.reason} (line ${replay.problem.line}); handler left unchanged`;
    } else {
      const notes = [
        ...(site.loop === undefined
          ? []
          : [`in a ${site.loop.kind} loop (line ${site.loop.line}): one journal entry per iteration`]),
        ...(index === 0 ? replay.wrapped.map((wrap) => `wrapped ${wrap}`) : []),
      ];
      site.reason = notes.length === 0 ? 'rewritten to ctx.sample' : `rewritten to ctx.sample; ${notes.join('; ')}`;
    }
  }
  const rewritable = sites.every((site) => site.status === 'migrated');
  const edits = rewritable
    ? [
        ...parameters.edits,
        ...uses.edits,
        ...replay.edits,
        ...sites.flatMap((site) => sampleCallEdits(site.sampling, site.step as string, parameters.context)),
      ]
    : [];
  for (const site of sites) if (site.status !== 'migrated') delete site.step;
  return { registration, sites, context: parameters.context, edits, replay, rewritable };
}

export function analyzeFile(path: string, file: SourceFile): FileAnalysis {
  const byHandler = new Map<Handler, { registration: ToolRegistration; calls: SamplingCall[] }>();
  const loose: SiteAnalysis[] = [];
  for (const sampling of findSamplingCalls(file)) {
    const { fn, registration, nested } = handlerOf(sampling.call);
    if (fn === undefined || registration === undefined) {
      loose.push({
        sampling,
        location: locationOf(path, sampling.call),
        status: 'unsupported',
        reason:
          sampling.kind === 'inputRequired'
            ? (ownProblem(sampling) as string)
            : 'not inside an inline tool handler (registerTool or tool) in this file: a helper function or a handler passed by reference; give it the kit context by hand',
      });
      continue;
    }
    if (nested !== undefined) {
      sampling.problem ??= `the call sits in a nested function (line ${nested.getStartLineNumber()}) of the handler, which ctx.sample cannot reach by rewriting`;
    }
    const entry = byHandler.get(fn) ?? { registration, calls: [] };
    entry.calls.push(sampling);
    byHandler.set(fn, entry);
  }
  const handlers = [...byHandler.entries()].map(([fn, { registration, calls }]) =>
    analyzeHandler(path, fn, registration, calls),
  );
  return { path, file, handlers, loose };
}
