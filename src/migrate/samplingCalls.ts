/**
 * Sampling call sites in one file, by shape (no type checker): SDK v1/v2 `*.createMessage(params)`, SDK v1
 * `*.sendRequest({ method: 'sampling/createMessage', params }, schema)`, SDK v2 `*.mcpReq.requestSampling(params)`,
 * and hand-built MRTR state machines (`inputRequired(...)` with an embedded `createMessage`).
 */
import { Node, SyntaxKind, type CallExpression, type Expression, type SourceFile } from 'ts-morph';

import type { SamplingCallKind } from './types.js';

export interface SamplingCall {
  call: CallExpression;
  kind: SamplingCallKind;
  /** The request params (`CreateMessageRequest['params']`), when the call's shape gives them. */
  params?: Expression;
  /** Set when this call's own shape cannot be rewritten. */
  problem?: string;
}

const SAMPLING_METHOD = 'sampling/createMessage';

function stringValue(node: Node | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  return undefined;
}

/** `{ method: 'sampling/createMessage', params }`: the params, or why the object is not that shape. */
function sendRequestParams(arg: Node | undefined): { params?: Expression; problem?: string } | undefined {
  if (arg === undefined || !Node.isObjectLiteralExpression(arg)) return undefined;
  const method = arg.getProperty('method');
  if (method === undefined || !Node.isPropertyAssignment(method)) return undefined;
  if (stringValue(method.getInitializer()) !== SAMPLING_METHOD) return undefined;
  const params = arg.getProperty('params');
  const others = arg.getProperties().filter((property) => property !== method && property !== params);
  if (others.length > 0) return { problem: 'the request object has more than `method` and `params`' };
  if (params !== undefined && Node.isPropertyAssignment(params)) return { params: params.getInitializerOrThrow() };
  if (params !== undefined && Node.isShorthandPropertyAssignment(params)) return { params: params.getNameNode() };
  return { problem: 'the request object has no `params` property the codemod can read' };
}

/** Whether a call is the `createMessage` builder of the SDK's `inputRequired` (a hand-built state machine). */
function isInputRequiredBuilder(receiver: Expression): boolean {
  return Node.isIdentifier(receiver) && receiver.getText() === 'inputRequired';
}

function optionsProblem(call: CallExpression, index: number): string | undefined {
  return call.getArguments().length > index
    ? 'the call passes request options (timeout, signal…), which `ctx.sample` does not take'
    : undefined;
}

function classify(call: CallExpression): SamplingCall | undefined {
  const callee = call.getExpression();
  const args = call.getArguments();
  if (Node.isIdentifier(callee) && callee.getText() === 'inputRequired') {
    return call.getText().includes('createMessage') ? { call, kind: 'inputRequired' } : undefined;
  }
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const name = callee.getName();
  const receiver = callee.getExpression();
  if (name === 'createMessage') {
    if (isInputRequiredBuilder(receiver)) {
      // Reported once, with the inputRequired(...) call around it, unless it stands alone.
      const around = call.getFirstAncestor(
        (node) => Node.isCallExpression(node) && node.getExpression().getText() === 'inputRequired',
      );
      return around === undefined ? { call, kind: 'inputRequired' } : undefined;
    }
    const problem = optionsProblem(call, 1) ?? (args.length === 0 ? 'the call has no params' : undefined);
    return {
      call,
      kind: 'createMessage',
      ...(args[0] !== undefined && { params: args[0] as Expression }),
      ...(problem && { problem }),
    };
  }
  if (name === 'requestSampling' && Node.isPropertyAccessExpression(receiver) && receiver.getName() === 'mcpReq') {
    const problem = optionsProblem(call, 1) ?? (args.length === 0 ? 'the call has no params' : undefined);
    return {
      call,
      kind: 'requestSampling',
      ...(args[0] !== undefined && { params: args[0] as Expression }),
      ...(problem && { problem }),
    };
  }
  if (name === 'sendRequest') {
    const request = sendRequestParams(args[0]);
    if (request === undefined) return undefined;
    const problem = request.problem ?? optionsProblem(call, 2);
    return {
      call,
      kind: 'sendRequest',
      ...(request.params && { params: request.params }),
      ...(problem && { problem }),
    };
  }
  return undefined;
}

/** Every sampling call of the file, in source order. */
export function findSamplingCalls(file: SourceFile): SamplingCall[] {
  const text = file.getFullText();
  if (!/createMessage|requestSampling|sampling\/createMessage/.test(text)) return [];
  return file
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .map(classify)
    .filter((found): found is SamplingCall => found !== undefined);
}
