/**
 * A model tool as the server registers it: its descriptor, and each call run on the kit. The replay engine (and the
 * repository reader, the redactor behind it) is imported at the first call, so a server answers `server/discover` and
 * `tools/list` without loading it.
 */
import { defineTool, type AnyToolDefinition } from '../flows/tool.js';
import type { ModelKit } from './kit.js';
import type { ModelTool } from './modelTool.js';
import type { runModelTool } from './runModelTool.js';

let engine: Promise<{ runModelTool: typeof runModelTool }> | undefined;

/** Title from the name when the author gave none: `explain_file` -> `Explain file`. */
function titleOf(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function modelToolDefinition(tool: ModelTool, kit: ModelKit): AnyToolDefinition {
  return defineTool({
    name: tool.name,
    title: tool.title ?? titleOf(tool.name),
    description: tool.description,
    inputSchema: tool.input,
    ...(tool.output !== undefined && { outputSchema: tool.output }),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    async run(args, ctx) {
      const loaded = await (engine ??= import('./runModelTool.js').catch((error: unknown) => {
        engine = undefined; // a failed load is tried again by the next call
        throw error;
      }));
      return loaded.runModelTool(tool, kit, args, ctx);
    },
  });
}
