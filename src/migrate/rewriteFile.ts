/**
 * The rewritten text of one file: each rewritable handler's registration becomes a kit tool
 * (`defineModelTool`) registered with `registerModelTool` on the same server, one model kit per file, and the
 * imports to go with it. A file on SDK v1 has its SDK imports moved to v2 (registerModelTool needs the v2
 * McpServer) when every name it still imports has a home there.
 */
import { Node, SyntaxKind, type ImportDeclaration, type SourceFile } from 'ts-morph';

import type { FileAnalysis, HandlerAnalysis } from './analyzeFile.js';
import { syntaxProject } from './sourceFiles.js';
import { applyEdits, uniqueName, type TextEdit } from './textEdits.js';

export const KIT_MODULE = 'mcp-model-input/tool';
const V1_PREFIX = '@modelcontextprotocol/sdk/';
const V2_SERVER = '@modelcontextprotocol/server';

/** SDK v1 names with the same meaning in SDK v2, and the v2 module that exports them. */
const V2_HOMES: Readonly<Record<string, string>> = {
  McpServer: V2_SERVER,
  ResourceTemplate: V2_SERVER,
  Server: V2_SERVER,
  StdioServerTransport: `${V2_SERVER}/stdio`,
  CallToolResult: V2_SERVER,
  ContentBlock: V2_SERVER,
  CreateMessageRequest: V2_SERVER,
  CreateMessageRequestParams: V2_SERVER,
  CreateMessageResult: V2_SERVER,
  TextContent: V2_SERVER,
  ImageContent: V2_SERVER,
  AudioContent: V2_SERVER,
  SamplingMessage: V2_SERVER,
  Tool: V2_SERVER,
  ToolAnnotations: V2_SERVER,
  Implementation: V2_SERVER,
  ServerCapabilities: V2_SERVER,
  ServerRequest: V2_SERVER,
  ServerNotification: V2_SERVER,
  isInitializeRequest: V2_SERVER,
};

export interface FileRewrite {
  text: string;
  notes: string[];
}

export type RewriteOutcome = FileRewrite | { problem: string };

function lineIndent(text: string, position: number): string {
  const start = text.lastIndexOf('\n', position - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** Shifts every line but the first by `delta` spaces, except lines that start inside a template literal. */
function reindent(text: string, delta: number): string {
  if (delta === 0) return text;
  const probe = syntaxProject().createSourceFile('/probe.ts', `(${text})`);
  const literals = probe
    .getDescendants()
    .filter((node) => Node.isNoSubstitutionTemplateLiteral(node) || Node.isTemplateExpression(node))
    .map((node) => [node.getStart() - 1, node.getEnd() - 1] as const);
  const lines = text.split('\n');
  let offset = 0;
  return lines
    .map((line, index) => {
      const start = offset;
      offset += line.length + 1;
      if (index === 0 || line.trim() === '' || literals.some(([from, to]) => start > from && start < to)) return line;
      return delta > 0 ? ' '.repeat(delta) + line : line.replace(new RegExp(`^ {0,${-delta}}`), '');
    })
    .join('\n');
}

function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const joined = words.map((word, index) => (index === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join('');
  return /^[A-Za-z_$]/.test(joined) ? joined : `tool${joined}`;
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name}'`;
}

/** The local name of the file's zod import (`z`), if it has one. */
function zodName(file: SourceFile): string | undefined {
  for (const declaration of file.getImportDeclarations()) {
    if (!/^zod(\/v[34])?$/.test(declaration.getModuleSpecifierValue())) continue;
    const namespace = declaration.getNamespaceImport() ?? declaration.getDefaultImport();
    if (namespace !== undefined) return namespace.getText();
    const named = declaration.getNamedImports().find((specifier) => specifier.getName() === 'z');
    if (named !== undefined) return named.getAliasNode()?.getText() ?? 'z';
  }
  return undefined;
}

function identifiersOf(file: SourceFile): Set<string> {
  return new Set(file.getDescendantsOfKind(SyntaxKind.Identifier).map((identifier) => identifier.getText()));
}

interface Names {
  zod: string;
  kit: string;
  taken: Set<string>;
}

/** The statements that replace one registration. */
function registrationText(file: SourceFile, handler: HandlerAnalysis, names: Names): TextEdit {
  const text = file.getFullText();
  const { registration } = handler;
  const statement = registration.call.getParentOrThrow();
  const indent = lineIndent(text, statement.getStart());
  const fn = registration.handler;
  const run = reindent(
    applyEdits(fn.getText(), handler.edits, fn.getStart()),
    indent.length + 2 - lineIndent(text, fn.getStart()).length,
  );
  const schema = (entry: { node: Node; rawShape: boolean } | undefined): string | undefined =>
    entry === undefined
      ? undefined
      : entry.rawShape
        ? `${names.zod}.object(${entry.node.getText()})`
        : entry.node.getText();
  const toolVar = uniqueName(`${camelCase(registration.name ?? 'model')}Tool`, names.taken, '');
  const steps = [...new Set(handler.sites.map((site) => site.step as string))];
  const inner = `${indent}  `;
  const lines = [
    `const ${toolVar} = defineModelTool({`,
    `${inner}name: ${registration.nameNode.getText()},`,
    ...(registration.title === undefined ? [] : [`${inner}title: ${registration.title.getText()},`]),
    `${inner}description: ${registration.description?.getText() ?? registration.nameNode.getText()},`,
    `${inner}input: ${schema(registration.input) ?? `${names.zod}.object({})`},`,
    ...(registration.output === undefined ? [] : [`${inner}output: ${schema(registration.output)},`]),
    ...(registration.annotations === undefined ? [] : [`${inner}annotations: ${registration.annotations.getText()},`]),
    `${inner}steps: { ${steps.map((step) => `${propertyKey(step)}: {}`).join(', ')} },`,
    `${inner}run: ${run},`,
    `${indent}});`,
    `${indent}registerModelTool(${registration.server.getText()}, ${toolVar}, ${names.kit});`,
  ];
  return { start: statement.getStart(), end: statement.getEnd(), text: lines.join('\n') };
}

/** After the last import: the kit import, the zod import when needed, and the file's model kit. */
function preambleEdit(file: SourceFile, names: Names, needsZod: boolean): TextEdit {
  const imports = file.getImportDeclarations();
  const last = imports.at(-1);
  const position = last === undefined ? 0 : last.getEnd();
  const lines = [
    `import { createModelKit, defineModelTool, registerModelTool } from '${KIT_MODULE}';`,
    ...(needsZod ? [`import { z } from 'zod';`] : []),
    '',
    `// Where model input comes from: 'host' keeps asking the client's model (MRTR on 2026-07-28, live sampling on`,
    `// 2025-11-25); a server-owned provider ('openai:MODEL', 'anthropic:MODEL') drops the dependency on the client.`,
    `const ${names.kit} = createModelKit({ models: 'host' });`,
  ];
  const text = last === undefined ? `${lines.join('\n')}\n\n` : `\n${lines.join('\n')}`;
  return { start: position, end: position, text };
}

/** Named imports of `@modelcontextprotocol/*` that the rewritten text no longer uses are dropped. */
function unusedSdkImports(file: SourceFile): TextEdit[] {
  const used = new Map<string, number>();
  for (const identifier of file.getDescendantsOfKind(SyntaxKind.Identifier)) {
    used.set(identifier.getText(), (used.get(identifier.getText()) ?? 0) + 1);
  }
  const edits: TextEdit[] = [];
  for (const declaration of file.getImportDeclarations()) {
    if (!declaration.getModuleSpecifierValue().startsWith('@modelcontextprotocol/')) continue;
    const named = declaration.getNamedImports();
    const unused = named.filter(
      (specifier) => (used.get((specifier.getAliasNode() ?? specifier.getNameNode()).getText()) ?? 0) <= 1,
    );
    if (unused.length === 0) continue;
    if (
      unused.length === named.length &&
      declaration.getDefaultImport() === undefined &&
      declaration.getNamespaceImport() === undefined
    ) {
      const end = declaration.getEnd();
      const next = file.getFullText()[end] === '\n' ? end + 1 : end;
      edits.push({ start: declaration.getStart(), end: next, text: '' });
      continue;
    }
    const kept = named.filter((specifier) => !unused.includes(specifier)).map((specifier) => specifier.getText());
    const clause = declaration.getImportClauseOrThrow();
    const braces = clause.getFirstDescendantByKindOrThrow(SyntaxKind.NamedImports);
    edits.push({ start: braces.getStart(), end: braces.getEnd(), text: `{ ${kept.join(', ')} }` });
  }
  return edits;
}

/** SDK v1 imports moved to their v2 homes, or why they cannot be. */
function v1ToV2(file: SourceFile): { edits: TextEdit[]; moved: string[] } | { problem: string } {
  const v1 = file
    .getImportDeclarations()
    .filter((declaration) => declaration.getModuleSpecifierValue().startsWith(V1_PREFIX));
  if (v1.length === 0) return { edits: [], moved: [] };
  const unmapped: string[] = [];
  const byModule = new Map<string, { names: string[]; typeOnly: boolean }>();
  for (const declaration of v1) {
    if (declaration.getDefaultImport() !== undefined || declaration.getNamespaceImport() !== undefined) {
      unmapped.push(declaration.getImportClause()?.getText() ?? declaration.getModuleSpecifierValue());
    }
    for (const specifier of declaration.getNamedImports()) {
      const home = V2_HOMES[specifier.getName()];
      if (home === undefined) {
        unmapped.push(`${specifier.getName()} (${declaration.getModuleSpecifierValue()})`);
        continue;
      }
      const typeOnly = declaration.isTypeOnly() || specifier.isTypeOnly();
      const entry = byModule.get(`${home}|${typeOnly}`) ?? { names: [], typeOnly };
      entry.names.push(specifier.getText().replace(/^type\s+/, ''));
      byModule.set(`${home}|${typeOnly}`, entry);
    }
  }
  if (unmapped.length > 0) {
    return {
      problem:
        `the file imports SDK v1 names with no mechanical SDK v2 equivalent here (${unmapped.join(', ')}); ` +
        "registerModelTool needs the SDK v2 McpServer: run the SDK's v1-to-v2 codemod on it first",
    };
  }
  const leftoverTool = file
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .find(
      (call) =>
        Node.isPropertyAccessExpression(call.getExpression()) && call.getExpression().getText().endsWith('.tool'),
    );
  if (leftoverTool !== undefined) {
    return {
      problem: `SDK v2's McpServer has no tool(): the file's other server.tool(...) registration (line ${leftoverTool.getStartLineNumber()}) needs the SDK's v1-to-v2 codemod first`,
    };
  }
  const lines = [...byModule.entries()].map(
    ([key, { names, typeOnly }]) =>
      `import ${typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${key.split('|')[0]}';`,
  );
  const [first, ...rest] = v1;
  const edits: TextEdit[] = [
    {
      start: (first as ImportDeclaration).getStart(),
      end: (first as ImportDeclaration).getEnd(),
      text: lines.join('\n'),
    },
    ...rest.map((declaration) => {
      const end = declaration.getEnd();
      return { start: declaration.getStart(), end: file.getFullText()[end] === '\n' ? end + 1 : end, text: '' };
    }),
  ];
  return { edits, moved: v1.map((declaration) => declaration.getModuleSpecifierValue()) };
}

/** The rewritten text of a file with at least one rewritable handler. */
export function rewriteFile(analysis: FileAnalysis): RewriteOutcome {
  const { file } = analysis;
  const rewritable = analysis.handlers.filter((handler) => handler.rewritable);
  const taken = identifiersOf(file);
  const zod = zodName(file);
  const needsZod =
    zod === undefined &&
    rewritable.some((handler) => handler.registration.input === undefined || handler.registration.input.rawShape);
  const names: Names = { zod: zod ?? 'z', kit: uniqueName('modelKit', taken, ''), taken };
  const edits = [
    preambleEdit(file, names, needsZod),
    ...rewritable.map((handler) => registrationText(file, handler, names)),
  ];
  const first = applyEdits(file.getFullText(), edits);
  // Names the rewrite no longer uses (CreateMessageResultSchema…) go first, so only live names need a v2 home.
  const trimmed = applyEdits(first, unusedSdkImports(syntaxProject().createSourceFile(`/${analysis.path}`, first)));
  const sdk = v1ToV2(syntaxProject().createSourceFile(`/${analysis.path}`, trimmed));
  if ('problem' in sdk) return sdk;
  const text = applyEdits(trimmed, sdk.edits);
  const notes =
    sdk.moved.length > 0
      ? [`${analysis.path}: SDK v1 imports moved to SDK v2 (${[...new Set(sdk.moved)].join(', ')})`]
      : [];
  return { text, notes };
}
