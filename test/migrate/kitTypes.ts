/**
 * The declarations of the kit's public entry (`mcp-model-input/tool`) as agreed for the codemod: what a
 * migrated server is type-checked against in the `--check` tests (a fixture's tsconfig maps the module here).
 */
export const KIT_TYPES = `import type { CallToolResult, CreateMessageRequest, CreateMessageResult, McpServer } from '@modelcontextprotocol/server';
import type * as z from 'zod';

export type SampleRequest = CreateMessageRequest['params'] & { outputSchema?: z.ZodType };
export type SampleAnswer = CreateMessageResult & { text: string; route: 'provider' | 'host' | 'live' | 'builtin' };

export interface ModelToolContext {
  sample(step: string, request: SampleRequest): Promise<SampleAnswer>;
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T>;
  readonly signal: AbortSignal;
  log(level: string, data: unknown): void;
}

export interface ModelTool {
  readonly name: string;
}

export interface ModelKit {
  readonly steps: readonly string[];
}

export declare function defineModelTool<I extends z.ZodObject>(def: {
  name: string;
  title?: string;
  description: string;
  input: I;
  output?: z.ZodType;
  steps: Record<string, { description?: string }>;
  run(args: z.output<I>, ctx: ModelToolContext): Promise<CallToolResult | string>;
}): ModelTool;

export declare function registerModelTool(mcpServer: McpServer, tool: ModelTool, kit: ModelKit): void;

export declare function createModelKit(options?: { models?: string }): ModelKit;
`;
