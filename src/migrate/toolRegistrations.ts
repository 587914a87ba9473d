/**
 * Tool registrations on an McpServer, read by shape: `server.registerTool(name, config, handler)` (SDK v1 and
 * v2) and SDK v1's `server.tool(name, [description], [shape], handler)`. Only what a kit tool can carry is
 * accepted: a name, title, description, input and output schema, and an inline handler.
 */
import {
  Node,
  type ArrowFunction,
  type CallExpression,
  type Expression,
  type FunctionExpression,
  type ObjectLiteralExpression,
} from 'ts-morph';

export type Handler = ArrowFunction | FunctionExpression;

export interface ToolRegistration {
  call: CallExpression;
  api: 'registerTool' | 'tool';
  /** The server the tool is registered on (the call's receiver). */
  server: Expression;
  nameNode: Expression;
  /** The tool's name when it is a string literal. */
  name?: string;
  title?: Expression;
  description?: Expression;
  annotations?: Expression;
  /** A zod object, or a raw shape (`{ field: z.string() }`) that the kit needs wrapped in `z.object`. */
  input?: { node: Expression; rawShape: boolean };
  output?: { node: Expression; rawShape: boolean };
  handler: Handler;
  /** Why this registration cannot become a kit tool, when it cannot. */
  problem?: string;
}

const CONFIG_KEYS = new Set(['title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

function isFunction(node: Node | undefined): node is Handler {
  return node !== undefined && (Node.isArrowFunction(node) || Node.isFunctionExpression(node));
}

function literal(node: Node | undefined): string | undefined {
  if (node !== undefined && (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node))) {
    return node.getLiteralValue();
  }
  return undefined;
}

/** A schema given as `z.object(...)` (or any expression) versus a raw shape object literal. */
function schemaOf(node: Expression): { node: Expression; rawShape: boolean } {
  return { node, rawShape: Node.isObjectLiteralExpression(node) };
}

function fromConfig(registration: ToolRegistration, config: ObjectLiteralExpression): ToolRegistration {
  for (const property of config.getProperties()) {
    if (!Node.isPropertyAssignment(property)) {
      return {
        ...registration,
        problem: `the tool config has a \`${property.getText().slice(0, 40)}\` entry the codemod cannot read`,
      };
    }
    const key = property.getName();
    if (!CONFIG_KEYS.has(key)) {
      return { ...registration, problem: `the tool config's \`${key}\` has no place in defineModelTool` };
    }
    const value = property.getInitializerOrThrow();
    if (key === 'title') registration.title = value;
    if (key === 'description') registration.description = value;
    if (key === 'annotations') registration.annotations = value;
    if (key === 'inputSchema') registration.input = schemaOf(value);
    if (key === 'outputSchema') registration.output = schemaOf(value);
  }
  return registration;
}

/** SDK v1 `server.tool(name, description?, shapeOrAnnotations?, handler)`. */
function fromToolArgs(registration: ToolRegistration, middle: Node[]): ToolRegistration {
  let rest = middle;
  if (rest[0] !== undefined && literal(rest[0]) !== undefined) {
    registration.description = rest[0] as Expression;
    rest = rest.slice(1);
  }
  if (rest.length === 1 && Node.isObjectLiteralExpression(rest[0])) {
    registration.input = { node: rest[0], rawShape: true };
    rest = [];
  }
  return rest.length === 0
    ? registration
    : { ...registration, problem: 'server.tool(...) with annotations has no place in defineModelTool' };
}

/** The registration whose inline handler is `fn`, if `fn` is one. */
export function registrationOf(fn: Handler): ToolRegistration | undefined {
  const call = fn.getParent();
  if (call === undefined || !Node.isCallExpression(call)) return undefined;
  const args = call.getArguments();
  if (args[args.length - 1] !== fn || args.length < 2) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const api = callee.getName();
  if (api !== 'registerTool' && api !== 'tool') return undefined;
  const nameNode = args[0] as Expression;
  const name = literal(nameNode);
  const base: ToolRegistration = {
    call,
    api,
    server: callee.getExpression(),
    nameNode,
    ...(name !== undefined && { name }),
    handler: fn,
  };
  const middle = args.slice(1, -1);
  const statement = call.getParent();
  if (!Node.isExpressionStatement(statement)) {
    return { ...base, problem: "the registration's return value is used (registerModelTool returns nothing)" };
  }
  const block = statement.getParent();
  if (block === undefined || !(Node.isBlock(block) || Node.isSourceFile(block))) {
    return { ...base, problem: 'the registration is not a statement of a block' };
  }
  if (name !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    return {
      ...base,
      problem: `the tool name '${name}' is not one defineModelTool accepts (1 to 64 letters, digits, _ and -)`,
    };
  }
  if (api === 'tool') return fromToolArgs(base, middle);
  const config = middle[0];
  if (middle.length !== 1 || config === undefined)
    return { ...base, problem: 'registerTool(...) without a config object' };
  if (!Node.isObjectLiteralExpression(config)) return { ...base, problem: 'the tool config is not an object literal' };
  return fromConfig(base, config);
}

/** A handler given by reference (`server.registerTool('x', config, handleX)`): found to say why it is not rewritten. */
export function isRegistrationByReference(call: CallExpression): boolean {
  const callee = call.getExpression();
  const last = call.getArguments().at(-1);
  return (
    Node.isPropertyAccessExpression(callee) &&
    (callee.getName() === 'registerTool' || callee.getName() === 'tool') &&
    last !== undefined &&
    !isFunction(last)
  );
}

export { isFunction };
