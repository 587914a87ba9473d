/**
 * A JSON Schema read from zod source text (no evaluation): `z.object({...})` or a raw shape, with the common
 * members (`string`, `number`, `int`, `boolean`, `array`, `enum`, `literal`) and modifiers (`optional`, `default`,
 * `describe`, `min`, `max`). What it cannot read becomes `{}` (any value), named in the notes.
 */
import { Node, type Expression } from 'ts-morph';

type JsonSchema = Record<string, unknown>;

function literalValue(node: Node | undefined): unknown {
  if (node === undefined) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (Node.isTrueLiteral(node)) return true;
  if (Node.isFalseLiteral(node)) return false;
  return undefined;
}

/** The calls of a chain, innermost first: `z.string().min(1).optional()` -> [string, min, optional]. */
function chainOf(node: Node): Array<{ name: string; args: Node[] }> | undefined {
  const chain: Array<{ name: string; args: Node[] }> = [];
  let current: Node = node;
  while (Node.isCallExpression(current)) {
    const callee = current.getExpression();
    if (!Node.isPropertyAccessExpression(callee)) return undefined;
    chain.unshift({ name: callee.getName(), args: current.getArguments() });
    current = callee.getExpression();
  }
  return Node.isIdentifier(current) ? chain : undefined;
}

function member(node: Node, notes: string[], where: string): { schema: JsonSchema; optional: boolean } {
  const chain = chainOf(node);
  const [base, ...modifiers] = chain ?? [];
  let schema: JsonSchema = {};
  let optional = false;
  if (base === undefined) {
    notes.push(`${where}: \`${node.getText().slice(0, 60)}\` is not a zod chain the planner reads: shown as any value`);
    return { schema, optional };
  }
  if (base.name === 'string' || base.name === 'boolean') schema = { type: base.name };
  else if (base.name === 'number') schema = { type: 'number' };
  else if (base.name === 'array' && base.args[0] !== undefined)
    schema = { type: 'array', items: member(base.args[0], notes, where).schema };
  else if (base.name === 'object' && base.args[0] !== undefined) schema = objectSchema(base.args[0], notes, where);
  else if (base.name === 'enum' && base.args[0] !== undefined && Node.isArrayLiteralExpression(base.args[0])) {
    schema = { type: 'string', enum: base.args[0].getElements().map((element) => literalValue(element)) };
  } else if (base.name === 'literal') schema = { const: literalValue(base.args[0]) };
  else notes.push(`${where}: \`z.${base.name}(...)\` is shown as any value`);
  for (const modifier of modifiers) {
    const value = literalValue(modifier.args[0]);
    if (modifier.name === 'optional' || modifier.name === 'default' || modifier.name === 'nullish') optional = true;
    else if (modifier.name === 'describe' && typeof value === 'string') schema.description = value;
    else if (modifier.name === 'int' && schema.type === 'number') schema.type = 'integer';
    else if ((modifier.name === 'min' || modifier.name === 'max') && typeof value === 'number') {
      const bound =
        schema.type === 'string' ? `${modifier.name}Length` : modifier.name === 'min' ? 'minimum' : 'maximum';
      schema[bound] = value;
    }
  }
  return { schema, optional };
}

function objectSchema(shape: Node, notes: string[], where: string): JsonSchema {
  if (!Node.isObjectLiteralExpression(shape)) {
    notes.push(`${where}: the input shape is not an object literal: shown as any object`);
    return { type: 'object' };
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of shape.getProperties()) {
    if (!Node.isPropertyAssignment(property)) continue;
    const name = property.getName().replace(/^['"]|['"]$/g, '');
    const { schema, optional } = member(property.getInitializerOrThrow(), notes, `${where}.${name}`);
    properties[name] = schema;
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 && { required }) };
}

/** The tool's inputSchema as JSON Schema. */
export function inputSchemaOf(
  input: { node: Expression; rawShape: boolean } | undefined,
  notes: string[],
  tool: string,
): JsonSchema & { type: 'object' } {
  if (input === undefined) return { type: 'object' };
  if (input.rawShape) return objectSchema(input.node, notes, `${tool} input`) as JsonSchema & { type: 'object' };
  const chain = chainOf(input.node);
  const shape = chain?.[0]?.name === 'object' ? chain[0].args[0] : undefined;
  if (shape === undefined) {
    notes.push(`${tool} input: \`${input.node.getText().slice(0, 60)}\` is not z.object({...}): shown as any object`);
    return { type: 'object' };
  }
  return objectSchema(shape, notes, `${tool} input`) as JsonSchema & { type: 'object' };
}
