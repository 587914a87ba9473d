/**
 * Replay safety of a handler about to become a kit tool. On MRTR the tool's `run` is re-run from the top each
 * round, so everything that can run before its last sampling call (the whole loop when a sample sits in a loop)
 * runs again. Effects there — file writes, network and database calls, clocks and randomness, writes to
 * variables declared outside the handler — are wrapped in `ctx.once(key, fn)` where that is mechanical:
 *
 * - a clock or random value anywhere in a statement of the handler's own body (not in a loop, not in a nested
 *   function) is replaced in place by `(await ctx.once(key, async () => Date.now()))`;
 * - any other effect whose statement is an expression statement or a one-variable declaration (outside loops and
 *   nested functions, without a sampling call in it) has that statement wrapped.
 *
 * Anything else leaves the handler unchanged, with the reason and the line.
 */
import { Node, SyntaxKind, type CallExpression, type Statement } from 'ts-morph';

import type { SamplingCall } from './samplingCalls.js';
import { snakeCase, uniqueName, type TextEdit } from './textEdits.js';
import type { Handler } from './toolRegistrations.js';

export interface ReplayPlan {
  edits: TextEdit[];
  /** What was wrapped, one line each. */
  wrapped: string[];
  /** Set when an effect cannot be wrapped mechanically: the handler stays as it is. */
  problem?: { reason: string; line: number };
}

type EffectKind = 'clock' | 'random' | 'write' | 'network' | 'database' | 'mutation';

interface Effect {
  node: Node;
  kind: EffectKind;
  /** What it is, for the report (`Date.now()`, `writeFile(...)`, a write to `counter`). */
  label: string;
  /** A key for ctx.once. */
  key: string;
}

const CLOCK_CALLS = new Set(['Date.now', 'performance.now', 'process.hrtime', 'process.hrtime.bigint']);
const RANDOM_CALLS = new Set([
  'Math.random',
  'crypto.randomUUID',
  'randomUUID',
  'crypto.getRandomValues',
  'randomBytes',
  'crypto.randomBytes',
  'randomInt',
  'crypto.randomInt',
]);
const FILE_WRITES = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'mkdir',
  'mkdirSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'rename',
  'renameSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'truncate',
  'createWriteStream',
  'symlink',
  'chmod',
]);
const NETWORK_CALLS = new Set(['fetch', 'axios', 'got', 'request']);
const NETWORK_RECEIVERS = new Set(['http', 'https', 'axios', 'got', 'undici', 'net', 'dgram']);
const DATABASE_METHODS = new Set([
  'insert',
  'insertOne',
  'insertMany',
  'update',
  'updateOne',
  'updateMany',
  'upsert',
  'delete',
  'deleteOne',
  'deleteMany',
  'remove',
  'save',
  'exec',
  'execute',
  'query',
  'run',
  'transaction',
  'commit',
  'publish',
  'send',
  'emit',
  'incr',
  'decr',
  'hset',
  'lpush',
  'rpush',
  'set',
  'put',
  'post',
  'patch',
  'write',
]);
const MUTATING_METHODS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'add',
  'clear',
]);
const ASSIGNMENTS = new Set([
  SyntaxKind.EqualsToken,
  SyntaxKind.PlusEqualsToken,
  SyntaxKind.MinusEqualsToken,
  SyntaxKind.AsteriskEqualsToken,
  SyntaxKind.SlashEqualsToken,
  SyntaxKind.PercentEqualsToken,
  SyntaxKind.BarBarEqualsToken,
  SyntaxKind.AmpersandAmpersandEqualsToken,
  SyntaxKind.QuestionQuestionEqualsToken,
]);

/** Names declared anywhere inside the handler (parameters included): a name-level approximation of its scope. */
export function localNames(handler: Handler): Set<string> {
  const names = new Set<string>();
  const addBinding = (node: Node): void => {
    if (Node.isIdentifier(node)) names.add(node.getText());
    else for (const element of node.getDescendantsOfKind(SyntaxKind.Identifier)) names.add(element.getText());
  };
  for (const parameter of handler.getParameters()) addBinding(parameter.getNameNode());
  for (const node of handler.getDescendants()) {
    if (Node.isVariableDeclaration(node) || Node.isParameterDeclaration(node)) addBinding(node.getNameNode());
    else if ((Node.isFunctionDeclaration(node) || Node.isClassDeclaration(node)) && node.getName() !== undefined) {
      names.add(node.getName() as string);
    }
  }
  return names;
}

/** The identifier an access path starts from (`a.b[c].d` -> `a`), or `this`. */
function rootOf(node: Node): string | undefined {
  let current: Node = node;
  while (Node.isPropertyAccessExpression(current) || Node.isElementAccessExpression(current)) {
    current = current.getExpression();
  }
  if (Node.isIdentifier(current)) return current.getText();
  if (current.getKind() === SyntaxKind.ThisKeyword) return 'this';
  return undefined;
}

function calleeName(call: CallExpression): string {
  return call.getExpression().getText().replace(/\s+/g, '');
}

function callEffect(call: CallExpression, locals: Set<string>): Effect | undefined {
  const name = calleeName(call);
  const last = name.split('.').at(-1) ?? name;
  if (CLOCK_CALLS.has(name))
    return { node: call, kind: 'clock', label: `${name}()`, key: snakeCase(name.replace(/\./g, '_')) };
  if (RANDOM_CALLS.has(name)) return { node: call, kind: 'random', label: `${name}()`, key: snakeCase(last) };
  const callee = call.getExpression();
  const receiver = Node.isPropertyAccessExpression(callee) ? rootOf(callee.getExpression()) : undefined;
  if (FILE_WRITES.has(last))
    return { node: call, kind: 'write', label: `${name}(...)`, key: snakeCase(last.replace(/Sync$/, '')) };
  if (
    (Node.isIdentifier(callee) && NETWORK_CALLS.has(name)) ||
    (receiver !== undefined && NETWORK_RECEIVERS.has(receiver))
  ) {
    return { node: call, kind: 'network', label: `${name}(...)`, key: snakeCase(last) };
  }
  const outside = receiver !== undefined && !locals.has(receiver);
  if (outside && DATABASE_METHODS.has(last))
    return { node: call, kind: 'database', label: `${name}(...)`, key: snakeCase(`${receiver}_${last}`) };
  if (outside && MUTATING_METHODS.has(last)) {
    return {
      node: call,
      kind: 'mutation',
      label: `${name}(...) on \`${receiver}\`, declared outside the handler`,
      key: snakeCase(`${receiver}_${last}`),
    };
  }
  return undefined;
}

function effectOf(node: Node, locals: Set<string>): Effect | undefined {
  if (Node.isCallExpression(node)) return callEffect(node, locals);
  if (Node.isNewExpression(node) && node.getExpression().getText() === 'Date' && node.getArguments().length === 0) {
    return { node, kind: 'clock', label: 'new Date()', key: 'date_now' };
  }
  let target: Node | undefined;
  if (Node.isBinaryExpression(node) && ASSIGNMENTS.has(node.getOperatorToken().getKind())) target = node.getLeft();
  if (
    (Node.isPrefixUnaryExpression(node) || Node.isPostfixUnaryExpression(node)) &&
    (node.getOperatorToken() === SyntaxKind.PlusPlusToken || node.getOperatorToken() === SyntaxKind.MinusMinusToken)
  ) {
    target = node.getOperand();
  }
  if (Node.isDeleteExpression(node)) target = node.getExpression();
  const root = target === undefined ? undefined : rootOf(target);
  if (root !== undefined && !locals.has(root)) {
    return {
      node,
      kind: 'mutation',
      label: `a write to \`${root}\`, declared outside the handler`,
      key: snakeCase(root),
    };
  }
  return undefined;
}

/** The end of the code that is replayed: the last sampling call, or the end of the outermost loop around one. */
function replayedEnd(handler: Handler, calls: readonly SamplingCall[]): number {
  let end = 0;
  for (const { call } of calls) {
    let last = call.getEnd();
    for (const ancestor of call.getAncestors()) {
      if (ancestor === handler) break;
      if (isLoop(ancestor)) last = Math.max(last, ancestor.getEnd());
    }
    end = Math.max(end, last);
  }
  return end;
}

export function isLoop(node: Node): boolean {
  return (
    Node.isForStatement(node) ||
    Node.isForOfStatement(node) ||
    Node.isForInStatement(node) ||
    Node.isWhileStatement(node) ||
    Node.isDoStatement(node)
  );
}

/** What stands between the effect and the handler's body: a loop or a nested function makes wrapping unsafe. */
function obstacle(node: Node, handler: Handler): string | undefined {
  for (const ancestor of node.getAncestors()) {
    if (ancestor === handler) return undefined;
    if (isLoop(ancestor)) return 'it runs in a loop, where one ctx.once key would give every iteration the same result';
    if (
      Node.isFunctionLikeDeclaration(ancestor) ||
      Node.isArrowFunction(ancestor) ||
      Node.isFunctionExpression(ancestor)
    ) {
      return 'it runs in a nested function, which ctx.once cannot reach';
    }
  }
  return undefined;
}

function statementOf(node: Node, handler: Handler): Statement | undefined {
  for (const ancestor of [node, ...node.getAncestors()]) {
    if (ancestor === handler) return undefined;
    if (Node.isStatement(ancestor) && !Node.isBlock(ancestor)) return ancestor;
  }
  return undefined;
}

function containsAny(node: Node, calls: readonly SamplingCall[]): boolean {
  return calls.some(({ call }) => call.getStart() >= node.getStart() && call.getEnd() <= node.getEnd());
}

/** The serialisable result a wrapped declaration keeps: a fetch must end in .json() or .text(). */
function serialisable(init: Node, effects: readonly Effect[]): boolean {
  if (!effects.some((effect) => effect.kind === 'network')) return true;
  const text = init.getText().replace(/\s+/g, '');
  return /\.(json|text)\(\)\)?$/.test(text);
}

function indentOf(statement: Statement): string {
  const text = statement.getSourceFile().getFullText();
  const lineStart = text.lastIndexOf('\n', statement.getStart() - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** Plans the ctx.once wraps of a handler's replayed effects, or says why it cannot. */
export function planReplaySafety(handler: Handler, calls: readonly SamplingCall[], ctx: string): ReplayPlan {
  const body = handler.getBody();
  const plan: ReplayPlan = { edits: [], wrapped: [] };
  if (body === undefined || calls.length === 0) return plan;
  const end = replayedEnd(handler, calls);
  const locals = localNames(handler);
  const effects = body
    .getDescendants()
    .filter((node) => node.getStart() < end)
    .map((node) => effectOf(node, locals))
    .filter((effect): effect is Effect => effect !== undefined)
    // The context's own calls (ctx.log…) are the kit's business.
    .filter((effect) => !(Node.isCallExpression(effect.node) && rootOf(effect.node.getExpression()) === ctx));
  const keys = new Set<string>();
  const wrappedStatements = new Set<Statement>();
  const byStatement = new Map<Statement, Effect[]>();
  const lineOf = (node: Node): number => node.getStartLineNumber();
  for (const effect of effects) {
    const blocked = obstacle(effect.node, handler);
    if (blocked !== undefined) {
      plan.problem = {
        reason: `${effect.label} runs again on every MRTR round and ${blocked}`,
        line: lineOf(effect.node),
      };
      return plan;
    }
    const statement = statementOf(effect.node, handler);
    if (statement === undefined) {
      plan.problem = {
        reason: `${effect.label} is not in a statement of the handler's body`,
        line: lineOf(effect.node),
      };
      return plan;
    }
    byStatement.set(statement, [...(byStatement.get(statement) ?? []), effect]);
  }
  for (const [statement, found] of byStatement) {
    const inPlace = found.every((effect) => effect.kind === 'clock' || effect.kind === 'random');
    if (inPlace) {
      for (const effect of found) {
        const key = uniqueName(effect.key, keys);
        const node = effect.node;
        const value = Node.isNewExpression(node) ? 'Date.now()' : node.getText();
        const once = `await ${ctx}.once('${key}', async () => ${value})`;
        plan.edits.push({
          start: node.getStart(),
          end: node.getEnd(),
          text: Node.isNewExpression(node) ? `new Date(${once})` : `(${once})`,
        });
        plan.wrapped.push(`${effect.label} (line ${lineOf(node)}) in ctx.once('${key}')`);
      }
      continue;
    }
    const other = found.find((effect) => effect.kind !== 'clock' && effect.kind !== 'random') as Effect;
    const why = `${other.label} runs again on every MRTR round`;
    if (containsAny(statement, calls)) {
      plan.problem = { reason: `${why}, and its statement also asks for sampling`, line: lineOf(other.node) };
      return plan;
    }
    const indent = indentOf(statement);
    if (Node.isExpressionStatement(statement)) {
      const key = uniqueName(other.key, keys);
      plan.edits.push({
        start: statement.getStart(),
        end: statement.getEnd(),
        text: `await ${ctx}.once('${key}', async () => {\n${indent}  ${statement.getText()}\n${indent}});`,
      });
      plan.wrapped.push(`${other.label} (line ${lineOf(other.node)}) in ctx.once('${key}')`);
      wrappedStatements.add(statement);
      continue;
    }
    if (Node.isVariableStatement(statement)) {
      const [declaration, ...more] = statement.getDeclarations();
      const init = declaration?.getInitializer();
      if (declaration === undefined || more.length > 0 || init === undefined) {
        plan.problem = { reason: `${why}, in a declaration of several variables`, line: lineOf(other.node) };
        return plan;
      }
      if (!serialisable(init, found)) {
        plan.problem = {
          reason: `${why}, and its result (a Response) is not JSON-serialisable for ctx.once: wrap the call and the reading of its body together`,
          line: lineOf(other.node),
        };
        return plan;
      }
      const nameNode = declaration.getNameNode();
      const key = uniqueName(Node.isIdentifier(nameNode) ? snakeCase(nameNode.getText()) : other.key, keys);
      plan.edits.push({
        start: init.getStart(),
        end: init.getEnd(),
        text: `await ${ctx}.once('${key}', async () => ${init.getText()})`,
      });
      plan.wrapped.push(`${other.label} (line ${lineOf(other.node)}) in ctx.once('${key}')`);
      continue;
    }
    plan.problem = { reason: `${why}, in a statement the codemod does not wrap`, line: lineOf(other.node) };
    return plan;
  }
  return plan;
}
